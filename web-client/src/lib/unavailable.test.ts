import createClient from "openapi-fetch";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { paths } from "@/api/schema";
import { isRetrying, RETRIES, retryWhenUnavailable } from "./unavailable";

afterEach(() => {
  vi.useRealTimers();
});

const unavailable = () =>
  new Response(
    JSON.stringify({ code: "service_unavailable", message: "Try again." }),
    { status: 503, headers: { "retry-after": "1" } },
  );

/** A client whose server answers `answers` in turn, recording each body. */
function clientAnswering(answers: (() => Response)[]) {
  const bodies: string[] = [];
  const fetch = vi.fn(async function (this: unknown, request: Request) {
    // As the browser's fetch does, refuse to be called on anything but the global object.
    if (this !== undefined && this !== globalThis)
      throw new TypeError("Illegal invocation");
    bodies.push(await request.text());
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    return next();
  });
  const client = createClient<paths>({
    baseUrl: "http://agora.test/api",
    fetch,
  });
  client.use(retryWhenUnavailable);
  return { client, bodies, fetch };
}

describe("a call the server could not check for a moment", () => {
  it("is sent again, body and all, after Retry-After, while saying so", async () => {
    vi.useFakeTimers();
    const { client, bodies } = clientAnswering([
      unavailable,
      () => new Response(null, { status: 204 }),
    ]);
    const sent = client.PUT("/v1/reader/account/password", {
      body: {
        current_password: "correct horse",
        password: "fresh start",
        confirm_password: "fresh start",
      },
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(isRetrying()).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    const { response } = await sent;
    expect(response.status).toBe(204);
    expect(isRetrying()).toBe(false);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
    expect(JSON.parse(bodies[1] ?? "")).toMatchObject({
      password: "fresh start",
    });
  });

  it("reaches the caller as a 503 after the last try, never as a 401", async () => {
    vi.useFakeTimers();
    const { client, fetch } = clientAnswering(
      Array.from({ length: RETRIES + 1 }, () => unavailable),
    );
    const sent = client.GET("/v1/reader/account");
    await vi.advanceTimersByTimeAsync(RETRIES * 1000 + 10);
    const { response, error } = await sent;
    expect(response.status).toBe(503);
    expect(error).toMatchObject({ code: "service_unavailable" });
    expect(fetch).toHaveBeenCalledTimes(RETRIES + 1);
    expect(isRetrying()).toBe(false);
  });

  it("leaves every other answer alone, a 503 of another kind too", async () => {
    const other = () =>
      new Response(JSON.stringify({ code: "internal_error", message: "" }), {
        status: 503,
      });
    const { client, fetch } = clientAnswering([other]);
    const { response } = await client.GET("/v1/reader/account");
    expect(response.status).toBe(503);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
