import { rmSync } from "node:fs";
import { createServer } from "node:http";
import { createSidecar } from "./app.js";
import { loadCritical } from "./critical.js";
import { loadRenderer } from "./renderer.js";
import { tracingFromEnv } from "./tracing-env.js";

const host = process.env.SSR_HOST || "127.0.0.1";
const port = Number(process.env.SSR_PORT || 3001);
// A Unix socket instead of a port (the app starts its sidecar on one).
const socket = process.env.SSR_SOCKET || undefined;

// Off (and the OpenTelemetry SDK not loaded) unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
const tracing = await tracingFromEnv();
const render = await loadRenderer();
// What the build found for each kind of page: no stylesheet is parsed at start-up.
const critical = loadCritical();
const server = createServer(createSidecar(render, critical, tracing));
const listening = () => {
  // The port actually bound (SSR_PORT=0 picks a free one).
  const bound = server.address();
  const at =
    typeof bound === "object" && bound ? `http://${host}:${bound.port}` : bound;
  console.log(`ssr-renderer listening on ${at}`);
};
if (socket) rmSync(socket, { force: true });
if (socket) server.listen(socket, listening);
else server.listen(port, host, listening);
server.keepAliveTimeout = 65_000;
server.on("error", (err) => {
  console.error("ssr-renderer failed to start:", err);
  process.exit(1);
});

let stopping = false;

function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`ssr-renderer: ${signal}, shutting down`);
  server.close(() => {
    if (!tracing) process.exit(0);
    // The spans of the last renders are exported before the process ends.
    tracing
      .shutdown()
      .catch((err: unknown) =>
        console.error("ssr-renderer: could not export its last spans:", err),
      )
      .finally(() => process.exit(0));
  });
  server.closeIdleConnections();
  // Do not hang on a slow client (or collector); in-flight renders are synchronous and short.
  setTimeout(() => process.exit(0), 5_000).unref();
}

process.once("SIGTERM", () => shutdown("SIGTERM"));
process.once("SIGINT", () => shutdown("SIGINT"));

// Started by the app (SSR_PARENT_PIPE=1), the sidecar reads a pipe the app holds open: it
// closes when the app ends, however it ends (SIGKILL, the OOM killer), and the sidecar ends
// with it instead of living on with nobody to send it work.
if (process.env.SSR_PARENT_PIPE === "1") {
  process.stdin.on("end", () => shutdown("the app is gone"));
  process.stdin.on("error", () => shutdown("the app is gone"));
  process.stdin.resume();
}
