import type { IncomingHttpHeaders } from "node:http";

/**
 * The trace of one render request: a span that continues the caller's trace (the app's),
 * with a child span for each phase of the render.
 */
export interface RequestTrace {
  /** Notes the page being rendered (`url` of the request body). */
  rendering(url: string): void;
  /**
   * Runs `fn` inside a child span `name` of the request's span; when `fn` returns a
   * promise, the span lasts until it settles. A throw or rejection marks the span failed.
   */
  phase<T>(name: string, fn: () => T): T;
  /** Ends the request's span with the response's status (`aborted`: the client left). */
  end(status: number, aborted: boolean): void;
}

/** OpenTelemetry tracing of the sidecar, when it is on (see `tracingFromEnv`). */
export interface Tracing {
  /**
   * Starts the span of a request, as a child of the span named by its W3C trace-context
   * headers (`traceparent`, `tracestate`), or of none when it has none.
   */
  request(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
  ): RequestTrace;
  /** Exports the spans not yet sent, then stops. */
  shutdown(): Promise<void>;
}
