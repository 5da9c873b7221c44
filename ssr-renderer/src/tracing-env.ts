import type { Tracing } from "./tracing.js";

/**
 * Tracing as the environment asks: on when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (the same
 * rule as the app's), exporting over OTLP/HTTP with protobuf per the standard `OTEL_*`
 * variables. Off otherwise, and then the OpenTelemetry SDK is not even loaded.
 */
export async function tracingFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Promise<Tracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) return undefined;
  const { startTracing } = await import("./telemetry.js");
  return startTracing({ serviceName: env.OTEL_SERVICE_NAME });
}
