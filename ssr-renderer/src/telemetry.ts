// The OpenTelemetry SDK: loaded (by `tracingFromEnv`) only when tracing is on.
import {
  DiagConsoleLogger,
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  defaultTextMapGetter,
  diag,
  propagation,
  trace,
  type Context,
  type Span,
} from "@opentelemetry/api";
import {
  W3CTraceContextPropagator,
  diagLogLevelFromString,
} from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
} from "@opentelemetry/semantic-conventions";

import type { RequestTrace, Tracing } from "./tracing.js";
import { message } from "./message.js";

export const DEFAULT_SERVICE_NAME = "agora-ssr";

/** The request span's name. */
export const REQUEST_SPAN = "ssr render";
/** The attribute that names the page rendered (the body's `url`, path and query). */
export const ATTR_SSR_URL = "ssr.url";

export interface TracingOptions {
  /** `service.name`; `agora-ssr` when empty. */
  serviceName?: string | undefined;
  /** Where spans go; by default OTLP over HTTP/protobuf per `OTEL_EXPORTER_OTLP_*`. */
  exporter?: SpanExporter;
  /** Spans are batched (per `OTEL_BSP_*`) unless false: then each is exported as it ends. */
  batch?: boolean;
}

function failed(span: Span, err: unknown) {
  span.recordException(err instanceof Error ? err : message(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: message(err) });
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === "object" || typeof value === "function") &&
  value !== null &&
  typeof (value as { then?: unknown }).then === "function";

/**
 * Sets up the tracer provider (registered as the global one, with the W3C trace-context
 * propagator and an async-local-storage context) and answers the sidecar's `Tracing`.
 */
export function startTracing(options: TracingOptions = {}): Tracing {
  diag.setLogger(new DiagConsoleLogger(), {
    logLevel:
      diagLogLevelFromString(process.env.OTEL_LOG_LEVEL) ?? DiagLogLevel.WARN,
    suppressOverrideMessage: true,
  });
  const exporter = options.exporter ?? new OTLPTraceExporter();
  const processor =
    options.batch === false
      ? new SimpleSpanProcessor(exporter)
      : new BatchSpanProcessor(exporter);
  const resource = defaultResource()
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]:
          options.serviceName?.trim() || DEFAULT_SERVICE_NAME,
      }),
    );
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [processor],
  });
  const propagator = new W3CTraceContextPropagator();
  provider.register({ propagator });
  const tracer = provider.getTracer("@agora/ssr-renderer");

  return {
    request(method, path, headers): RequestTrace {
      const parent = propagator.extract(
        ROOT_CONTEXT,
        headers,
        defaultTextMapGetter,
      );
      const span = tracer.startSpan(
        REQUEST_SPAN,
        {
          kind: SpanKind.SERVER,
          attributes: {
            [ATTR_HTTP_REQUEST_METHOD]: method,
            [ATTR_URL_PATH]: path,
            [ATTR_HTTP_ROUTE]: path,
          },
        },
        parent,
      );
      // Phases are children of this span whatever the active context is by then (a body
      // parser's stream callbacks need not carry it).
      const inside: Context = trace.setSpan(parent, span);
      let ended = false;
      return {
        rendering(url) {
          span.setAttribute(ATTR_SSR_URL, url);
        },
        phase(name, fn) {
          const child = tracer.startSpan(name, {}, inside);
          let result: ReturnType<typeof fn>;
          try {
            result = context.with(trace.setSpan(inside, child), fn);
          } catch (err) {
            failed(child, err);
            child.end();
            throw err;
          }
          if (!isThenable(result)) {
            child.end();
            return result;
          }
          return result.then(
            (value) => {
              child.end();
              return value;
            },
            (err: unknown) => {
              failed(child, err);
              child.end();
              throw err;
            },
          ) as typeof result;
        },
        end(status, aborted) {
          if (ended) return;
          ended = true;
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
          if (status >= 500) {
            span.setStatus({ code: SpanStatusCode.ERROR });
          } else if (aborted) {
            span.setStatus({
              code: SpanStatusCode.ERROR,
              message: "the client closed the connection",
            });
          }
          span.end();
        },
      };
    },
    async shutdown() {
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        propagation.disable();
        context.disable();
        diag.disable();
      }
    },
  };
}
