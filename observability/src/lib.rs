//! Tracing for every binary of the product: structured logs always, OpenTelemetry (OTLP over
//! HTTP) when `OTEL_EXPORTER_OTLP_ENDPOINT` is set. `LOG_FORMAT=json` switches logs to JSON;
//! `RUST_LOG` sets the filter.

use std::collections::HashMap;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry::{global, propagation::TextMapPropagator};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use opentelemetry_sdk::Resource;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter, Layer};

/// The target of spans that are worth a trace but not a log line: a span with no event
/// inside never shows in the logs, yet the log layer would format its fields on every
/// request. Spans with this target go to the trace exporter only (and cost nothing when
/// there is none).
pub const TRACE_ONLY: &str = "trace_only";

/// Keeps the exporter alive; call [`Telemetry::shutdown`] before exit to flush spans.
pub struct Telemetry {
    provider: Option<SdkTracerProvider>,
}

impl Telemetry {
    pub fn exporting(&self) -> bool {
        self.provider.is_some()
    }

    pub fn shutdown(self) {
        if let Some(provider) = self.provider {
            if let Err(e) = provider.shutdown() {
                eprintln!("failed to flush traces: {e}");
            }
        }
    }
}

/// Whether the environment asks for spans to be exported: `OTEL_EXPORTER_OTLP_ENDPOINT` set
/// and not blank (the rendering sidecar follows the same rule).
pub fn export_requested() -> bool {
    std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT").is_ok_and(|v| !v.trim().is_empty())
}

pub fn init(service_name: &'static str) -> anyhow::Result<Telemetry> {
    let exporting = export_requested();
    let mut filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,sqlx::query=error,poem=warn"));
    if !exporting {
        // With no exporter, spans made for it alone are turned off where they are written:
        // the registry never builds them (one per cached page served, otherwise).
        filter = filter.add_directive(format!("{TRACE_ONLY}=off").parse()?);
    }
    let json = std::env::var("LOG_FORMAT").is_ok_and(|v| v.eq_ignore_ascii_case("json"));
    let fmt_layer = if json {
        fmt::layer().json().with_current_span(true).boxed()
    } else {
        fmt::layer().compact().boxed()
    }
    .with_filter(filter_fn(|meta| meta.target() != TRACE_ONLY));
    let registry = tracing_subscriber::registry().with(filter).with(fmt_layer);

    if !exporting {
        registry.try_init()?;
        return Ok(Telemetry { provider: None });
    }
    // The exporter reads the endpoint and headers from the standard OTEL_* variables.
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .build()?;
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(Resource::builder().with_service_name(service_name).build())
        .build();
    let tracer = provider.tracer(service_name);
    registry
        .with(tracing_opentelemetry::layer().with_tracer(tracer))
        .try_init()?;
    global::set_tracer_provider(provider.clone());
    global::set_text_map_propagator(TraceContextPropagator::new());
    Ok(Telemetry {
        provider: Some(provider),
    })
}

/// W3C trace-context headers of the current span, to pass to another process.
pub fn trace_headers() -> HashMap<String, String> {
    let mut headers = HashMap::new();
    let context = tracing::Span::current().context();
    TraceContextPropagator::new().inject_context(&context, &mut headers);
    headers
}

/// Makes `span` part of the trace a caller's W3C trace-context headers name (`traceparent`,
/// and `tracestate` when given): a request from a traced client or proxy continues its trace.
/// Invalid or missing headers leave the span a root.
pub fn continue_trace(span: &tracing::Span, traceparent: Option<&str>, tracestate: Option<&str>) {
    use opentelemetry::trace::TraceContextExt;
    let Some(traceparent) = traceparent else {
        return;
    };
    let mut carrier = HashMap::new();
    carrier.insert("traceparent".to_string(), traceparent.to_string());
    if let Some(state) = tracestate {
        carrier.insert("tracestate".to_string(), state.to_string());
    }
    let context = TraceContextPropagator::new().extract(&carrier);
    if context.span().span_context().is_valid() {
        // Only fails without an OpenTelemetry layer, where there is no trace to continue.
        let _ = span.set_parent(context);
    }
}
