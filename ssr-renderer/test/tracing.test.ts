import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import {
  InMemorySpanExporter,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { createSidecar } from "../src/app.js";
import { rendered } from "./rendered.js";
import type { CriticalFn } from "../src/critical.js";
import type { RenderFn } from "../src/renderer.js";
import { REQUEST_SPAN, startTracing } from "../src/telemetry.js";
import { tracingFromEnv } from "../src/tracing-env.js";
import type { Tracing } from "../src/tracing.js";

// What the app sends: the span that asked for the render, in the trace it belongs to.
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

let exporter: InMemorySpanExporter;
let tracing: Tracing;
let server: Server | undefined;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  // The server's own set-up, exporting to memory as each span ends.
  tracing = startTracing({ exporter, batch: false });
});

afterEach(async () => {
  server?.close();
  server = undefined;
  await tracing.shutdown();
});

async function serve(render: RenderFn, critical?: CriticalFn) {
  server = createServer(createSidecar(render, critical, tracing)).listen(
    0,
    "127.0.0.1",
  );
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

const post = (base: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${base}/render`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** The spans exported once `count` have ended (a span ends as its response closes). */
async function spans(count: number): Promise<ReadableSpan[]> {
  await vi.waitFor(
    () => expect(exporter.getFinishedSpans()).toHaveLength(count),
    { timeout: 2_000, interval: 5 },
  );
  return exporter.getFinishedSpans();
}

const named = (all: ReadableSpan[], name: string) => {
  const span = all.find((s) => s.name === name);
  expect(span, name).toBeDefined();
  return span as ReadableSpan;
};

describe("tracing a render", () => {
  it("continues the caller's trace, with a child span per phase", async () => {
    const base = await serve(
      (url) => `<main>${url}</main>`,
      async () => "main{margin:0}",
    );
    const r = await post(
      base,
      { url: "/about?x=1", data: {} },
      { traceparent: TRACEPARENT, tracestate: "agora=1" },
    );
    expect(r.status).toBe(200);
    expect(await rendered(r)).toEqual({
      html: "<main>/about?x=1</main>",
      css: "main{margin:0}",
    });

    const all = await spans(3);
    const request = named(all, REQUEST_SPAN);
    expect(request.spanContext().traceId).toBe(TRACE_ID);
    expect(request.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(request.parentSpanContext?.isRemote).toBe(true);
    expect(request.spanContext().traceState?.get("agora")).toBe("1");
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.resource.attributes["service.name"]).toBe("agora-ssr");
    expect(request.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/render",
      "http.response.status_code": 200,
      "ssr.url": "/about?x=1",
    });
    expect(request.status.code).toBe(SpanStatusCode.UNSET);
    for (const phase of ["react render", "critical css"]) {
      const span = named(all, phase);
      expect(span.spanContext().traceId).toBe(TRACE_ID);
      expect(span.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
    }
  });

  it("marks a failed render, and starts a trace of its own without a traceparent", async () => {
    const base = await serve(() => {
      throw new Error("boom");
    });
    const r = await post(base, { url: "/", data: {} }, {});
    expect(r.status).toBe(500);
    const all = await spans(2);
    const request = named(all, REQUEST_SPAN);
    expect(request.parentSpanContext).toBeUndefined();
    expect(request.spanContext().traceId).not.toBe(TRACE_ID);
    expect(request.attributes["http.response.status_code"]).toBe(500);
    expect(request.status.code).toBe(SpanStatusCode.ERROR);
    const render = named(all, "react render");
    expect(render.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: "boom",
    });
    expect(render.events.map((e) => e.name)).toEqual(["exception"]);
  });

  it("traces a refused body, which is never rendered", async () => {
    const base = await serve(() => "");
    const r = await post(base, { data: {} }, { traceparent: TRACEPARENT });
    expect(r.status).toBe(400);
    const [request] = await spans(1);
    expect(request?.name).toBe(REQUEST_SPAN);
    expect(request?.spanContext().traceId).toBe(TRACE_ID);
    expect(request?.attributes["http.response.status_code"]).toBe(400);
  });

  it("leaves the health check out", async () => {
    const base = await serve(() => "");
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe("tracing from the environment", () => {
  it("is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set", async () => {
    expect(await tracingFromEnv({})).toBeUndefined();
    expect(
      await tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: " " }),
    ).toBeUndefined();
  });
});
