import { MutationObserver, onlineManager } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiFailure } from "./api-client";
import { createQueryClient, isRetryable, shouldRetry } from "./query-client";

afterEach(() => {
  vi.useRealTimers();
});

describe("retry policy", () => {
  it("tries network failures and 5xx answers again, never a 4xx", () => {
    expect(isRetryable(new TypeError("Failed to fetch"))).toBe(true);
    expect(isRetryable(new ApiFailure(0, "the connection failed"))).toBe(true);
    expect(isRetryable(new ApiFailure(500, ""))).toBe(true);
    expect(isRetryable(new ApiFailure(503, ""))).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 422, 429]) {
      expect(isRetryable(new ApiFailure(status, "")), `${status}`).toBe(false);
    }
    expect(isRetryable(new SyntaxError("bad JSON"))).toBe(false);
  });

  it("gives up after two more tries", () => {
    const down = new ApiFailure(503, "");
    expect([0, 1, 2].map((n) => shouldRetry(n, down))).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("is the default of the app's query client", async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const notFound = vi.fn(() => Promise.reject(new ApiFailure(404, "gone")));
    await expect(
      client.fetchQuery({ queryKey: ["a"], queryFn: notFound }),
    ).rejects.toThrow("gone");
    expect(notFound).toHaveBeenCalledTimes(1);

    const down = vi.fn(() => Promise.reject(new ApiFailure(503, "down")));
    const fetching = client.fetchQuery({ queryKey: ["b"], queryFn: down });
    fetching.catch(() => {});
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(fetching).rejects.toThrow("down");
    expect(down).toHaveBeenCalledTimes(3);
  });

  it("sends a write whatever the browser thinks of the network", async () => {
    onlineManager.setOnline(false);
    try {
      const client = createQueryClient();
      const write = vi.fn(async () => "sent");
      const observer = new MutationObserver(client, { mutationFn: write });
      await expect(observer.mutate()).resolves.toBe("sent");
      expect(write).toHaveBeenCalledTimes(1);
    } finally {
      onlineManager.setOnline(true);
    }
  });
});
