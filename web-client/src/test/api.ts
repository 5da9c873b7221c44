import { vi } from "vitest";
import { api } from "@/lib/api-client";

/** What openapi-fetch resolves to for an answer with `status` and `body`. */
export function answer(status: number, body?: unknown) {
  const ok = status >= 200 && status < 300;
  return {
    data: ok ? body : undefined,
    error: ok ? undefined : body,
    response: new Response(null, { status }),
  };
}

type Answer = ReturnType<typeof answer>;
export interface Call {
  method: string;
  path: string;
  init: { params?: { query?: Record<string, unknown> }; body?: unknown };
}
type Handler = (call: Call) => Answer | Promise<Answer>;

/**
 * Replaces the typed client's requests (tests run without a server, and
 * without a base URL fetch could use): every call goes to `handler` and is
 * recorded in `calls`.
 */
export function stubApi(handler: Handler) {
  const calls: Call[] = [];
  const stub = (method: string) =>
    (async (path: string, init: Call["init"] = {}) => {
      const call = { method, path, init };
      calls.push(call);
      return handler(call);
    }) as never;
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
    vi.spyOn(api, method).mockImplementation(stub(method));
  }
  return {
    calls,
    /** The calls made to `path` (e.g. "/v1/articles"). */
    to: (path: string) => calls.filter((c) => c.path === path),
  };
}
