//! RED metrics (rate, errors, duration per route template), the page cache's hits and misses,
//! background job runs, sidecar restarts, and the outbox's queue — served at `/metrics` in the
//! Prometheus text format when `METRICS_TOKEN` is set (scrapers send it as a bearer token).
//!
//! The counters are process-wide: every part of the app records into the one registry.

use std::borrow::Cow;
use std::sync::LazyLock;
use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: Cow<'static, str>,
    method: &'static str,
    /// `2xx`, `3xx`, `4xx` or `5xx`.
    status: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteOnly {
    route: Cow<'static, str>,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ResultLabel {
    result: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct JobLabel {
    job: &'static str,
}

struct Metrics {
    registry: Registry,
    requests: Family<RouteLabels, Counter>,
    duration: Family<RouteOnly, Histogram>,
    /// The page cache's three results, looked up once (each hit counts one).
    cache_hit: Counter,
    cache_stale: Counter,
    cache_miss: Counter,
    jobs: Family<JobLabel, Counter>,
    sidecar_restarts: Counter,
    sidecar_busy: Counter,
    sidecar_failed: Counter,
    sidecar_health_missed: Counter,
    outbox_depth: Gauge,
    outbox_oldest: Gauge,
    outbox_given_up: Gauge,
}

static METRICS: LazyLock<Metrics> = LazyLock::new(|| {
    let mut registry = Registry::with_prefix("agora");
    let requests = Family::<RouteLabels, Counter>::default();
    registry.register(
        "http_requests",
        "HTTP requests answered, by route template, method and status class",
        requests.clone(),
    );
    let duration = Family::<RouteOnly, Histogram>::new_with_constructor(|| {
        Histogram::new([
            0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
        ])
    });
    registry.register(
        "http_request_duration_seconds",
        "Time to answer a request, by route template",
        duration.clone(),
    );
    let page_cache = Family::<ResultLabel, Counter>::default();
    registry.register(
        "page_cache_lookups",
        "Public page requests answered from the page cache (hit) or rendered (miss)",
        page_cache.clone(),
    );
    let result = |result| page_cache.get_or_create(&ResultLabel { result }).clone();
    let (cache_hit, cache_stale, cache_miss) = (result("hit"), result("stale"), result("miss"));
    let jobs = Family::<JobLabel, Counter>::default();
    registry.register(
        "job_runs",
        "Periods of a background job run by this instance",
        jobs.clone(),
    );
    let sidecar_restarts = Counter::default();
    registry.register(
        "sidecar_restarts",
        "Times the server-rendering sidecar was restarted",
        sidecar_restarts.clone(),
    );
    let sidecar_busy = Counter::default();
    registry.register(
        "sidecar_busy_renders",
        "Renders that found every sidecar slot taken until their deadline (served the shell)",
        sidecar_busy.clone(),
    );
    let sidecar_failed = Counter::default();
    registry.register(
        "sidecar_failed_renders",
        "Renders the sidecar did not finish in time or failed (served the shell)",
        sidecar_failed.clone(),
    );
    let sidecar_health_missed = Counter::default();
    registry.register(
        "sidecar_health_checks_missed",
        "Health checks the sidecar did not answer in time (three in a row restart it)",
        sidecar_health_missed.clone(),
    );
    let outbox_depth = Gauge::default();
    registry.register(
        "outbox_pending",
        "Emails waiting to be sent (all instances)",
        outbox_depth.clone(),
    );
    let outbox_oldest = Gauge::default();
    registry.register(
        "outbox_oldest_pending_seconds",
        "Age of the oldest email waiting to be sent, in seconds (0 when none)",
        outbox_oldest.clone(),
    );
    let outbox_given_up = Gauge::default();
    registry.register(
        "outbox_given_up",
        "Emails given up on (refused for good, or failing past every retry), kept whole until \
         an operator runs `agora outbox retry` or `discard`",
        outbox_given_up.clone(),
    );
    Metrics {
        registry,
        requests,
        duration,
        cache_hit,
        cache_stale,
        cache_miss,
        jobs,
        sidecar_restarts,
        sidecar_busy,
        sidecar_failed,
        sidecar_health_missed,
        outbox_depth,
        outbox_oldest,
        outbox_given_up,
    }
});

fn status_class(status: u16) -> &'static str {
    match status {
        100..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    }
}

/// The label of a request's method: the standard ones by name, any other as `OTHER` (a
/// client cannot grow the label set).
fn method_label(method: &str) -> &'static str {
    const KNOWN: [&str; 9] = [
        "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
    ];
    KNOWN
        .into_iter()
        .find(|known| *known == method)
        .unwrap_or("OTHER")
}

/// Handles to one route's series, kept by each thread for the routes it answers.
struct RouteSeries {
    route: &'static str,
    method: &'static str,
    status: &'static str,
    requests: Counter,
    duration: Histogram,
}

/// Route, method and status combinations a thread keeps handles for (the page routes and
/// the API's templates fit many times over; past it, the families are looked up).
const SERIES_PER_THREAD: usize = 256;

thread_local! {
    static SERIES: std::cell::RefCell<Vec<RouteSeries>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A request answered. The labels are copied only the first time a combination is seen; a
/// `'static` route (the page routes, the API's templates) is counted through handles each
/// thread keeps, without looking the families up behind their lock.
pub fn request(route: impl Into<Cow<'static, str>>, method: &str, status: u16, took: Duration) {
    let seconds = took.as_secs_f64();
    with_series(
        route.into(),
        method_label(method),
        status_class(status),
        |requests, duration| {
            requests.inc();
            duration.observe(seconds);
        },
    );
}

/// Calls `record` with the series of a route, method and status class: the thread's kept
/// handles for a `'static` route, else the families' (keeping the handles when there is room).
fn with_series(
    route: Cow<'static, str>,
    method: &'static str,
    status: &'static str,
    record: impl Fn(&Counter, &Histogram),
) {
    let looked_up = |route| {
        let (requests, duration) = series(route, method, status);
        record(&requests, &duration);
        (requests, duration)
    };
    let Cow::Borrowed(fixed) = route else {
        looked_up(route);
        return;
    };
    SERIES.with(|kept| {
        let Ok(mut kept) = kept.try_borrow_mut() else {
            looked_up(Cow::Borrowed(fixed));
            return;
        };
        let same = |s: &&RouteSeries| {
            std::ptr::eq(s.route, fixed) && s.method == method && s.status == status
        };
        if let Some(s) = kept.iter().find(same) {
            record(&s.requests, &s.duration);
            return;
        }
        let (requests, duration) = looked_up(Cow::Borrowed(fixed));
        if kept.len() < SERIES_PER_THREAD {
            kept.push(RouteSeries {
                route: fixed,
                method,
                status,
                requests,
                duration,
            });
        }
    });
}

/// The counter and histogram of a route, method and status class, made when first seen.
fn series(
    route: Cow<'static, str>,
    method: &'static str,
    status: &'static str,
) -> (Counter, Histogram) {
    let m = &*METRICS;
    let requests = m
        .requests
        .get_or_create(&RouteLabels {
            route: route.clone(),
            method,
            status,
        })
        .clone();
    let duration = m.duration.get_or_create(&RouteOnly { route }).clone();
    (requests, duration)
}

/// How a public page was answered from the page cache.
#[derive(Clone, Copy, Debug)]
pub enum CacheResult {
    Hit,
    /// An older version sent while it is rendered again in the background.
    Stale,
    Miss,
}

/// A public page looked up in the page cache.
pub fn page_cache(result: CacheResult) {
    let m = &*METRICS;
    match result {
        CacheResult::Hit => m.cache_hit.inc(),
        CacheResult::Stale => m.cache_stale.inc(),
        CacheResult::Miss => m.cache_miss.inc(),
    };
}

/// A background job ran a period here.
pub fn job_ran(job: &'static str) {
    METRICS.jobs.get_or_create(&JobLabel { job }).inc();
}

/// The rendering sidecar was restarted.
pub fn sidecar_restarted() {
    METRICS.sidecar_restarts.inc();
}

/// A render found every sidecar slot taken until its deadline.
pub fn sidecar_busy() {
    METRICS.sidecar_busy.inc();
}

/// A render the sidecar did not finish in time, or failed: the shell was served.
pub fn sidecar_failed() {
    METRICS.sidecar_failed.inc();
}

/// The sidecar did not answer a health check in time.
pub fn sidecar_health_missed() {
    METRICS.sidecar_health_missed.inc();
}

/// The metrics in the Prometheus text format, with the outbox's queue and the email given
/// up on as they are now.
pub fn render(outbox: Option<(i64, i64)>, given_up: Option<i64>) -> String {
    let m = &*METRICS;
    if let Some((pending, oldest_seconds)) = outbox {
        m.outbox_depth.set(pending);
        m.outbox_oldest.set(oldest_seconds);
    }
    if let Some(n) = given_up {
        m.outbox_given_up.set(n);
    }
    let mut out = String::new();
    if encode(&mut out, &m.registry).is_err() {
        out.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_request_counts_once_whichever_way_its_route_is_given() {
        // A route known at compile time (kept per thread) and the same route made at run
        // time (looked up in the family) count into one series.
        for _ in 0..3 {
            request("/counted/{once}", "GET", 200, Duration::from_millis(2));
        }
        request(
            String::from("/counted/{once}"),
            "GET",
            204,
            Duration::from_millis(2),
        );
        request("/counted/{once}", "POST", 200, Duration::from_millis(2));
        let other = std::thread::spawn(|| {
            request("/counted/{once}", "GET", 201, Duration::from_millis(2));
        });
        other.join().unwrap();
        let text = render(None, None);
        assert!(
            text.contains(
                "agora_http_requests_total{route=\"/counted/{once}\",method=\"GET\",status=\"2xx\"} 5\n"
            ),
            "{text}"
        );
        assert!(text.contains(
            "agora_http_requests_total{route=\"/counted/{once}\",method=\"POST\",status=\"2xx\"} 1\n"
        ));
        assert!(text
            .contains("agora_http_request_duration_seconds_count{route=\"/counted/{once}\"} 6\n"));
    }

    #[test]
    fn requests_are_counted_by_route_and_status_class() {
        request("/article/{slug}", "GET", 200, Duration::from_millis(3));
        request("/article/{slug}", "GET", 503, Duration::from_millis(3));
        page_cache(CacheResult::Hit);
        page_cache(CacheResult::Stale);
        job_ran("housekeeping");
        let text = render(Some((3, 42)), Some(2));
        assert!(text.contains(
            r#"agora_http_requests_total{route="/article/{slug}",method="GET",status="2xx"} "#
        ));
        assert!(text.contains(r#"status="5xx"} "#));
        assert!(text.contains(r#"agora_page_cache_lookups_total{result="hit"} "#));
        assert!(text.contains(r#"agora_page_cache_lookups_total{result="stale"} "#));
        assert!(text.contains(r#"agora_job_runs_total{job="housekeeping"} "#));
        assert!(text.contains("agora_outbox_pending 3\n"));
        assert!(text.contains("agora_outbox_oldest_pending_seconds 42\n"));
        assert!(text.contains("agora_outbox_given_up 2\n"));
        assert!(text.contains("agora_http_request_duration_seconds_bucket"));
    }
}
