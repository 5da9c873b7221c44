import createClient from "openapi-fetch";
import type { paths } from "@/api/schema";

/**
 * Typed client for the JSON API. The contract's server is `/api` on the page's
 * own origin, so paths read `/v1/...`. Only the browser calls it: server-side
 * rendering receives its data from the Rust app instead.
 */
export const api = createClient<paths>({
  baseUrl: "/api",
  fetch: (input) => globalThis.fetch(input),
  Request: lazyRequest(),
});

/**
 * `Request`, looked up when a request is made. Node loads its `fetch` and `Request` (undici,
 * a good part of the rendering sidecar's start) the first time either is read, and the
 * client reads both when it is made unless given its own; the server never calls the API.
 */
function lazyRequest(): typeof Request {
  const make = function (input: RequestInfo | URL, init?: RequestInit) {
    return new globalThis.Request(input, init);
  } as unknown as typeof Request;
  Object.defineProperty(make, Symbol.hasInstance, {
    value: (v: unknown) => v instanceof globalThis.Request,
  });
  return make;
}

/** A staff call the server refused, with the status and the server's message. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The body's stable `code`, e.g. "title_required" ("" when there is none). */
    readonly code = "",
    /** The whole error body, for answers that say more (who saved a newer version). */
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = "ApiFailure";
  }

  /** The session is over (or never existed): the user must sign in again. */
  get signedOut(): boolean {
    return this.status === 401;
  }
}

/** A text field of an `{code, message}` error body; "" for any other body. */
function bodyField(body: unknown, field: "code" | "message"): string {
  if (typeof body === "object" && body !== null && field in body) {
    const value: unknown = (body as Record<string, unknown>)[field];
    if (typeof value === "string") return value;
  }
  return "";
}

/** The `message` of an `{code, message}` error body; "" for any other body. */
export function errorMessage(body: unknown): string {
  return bodyField(body, "message");
}

/**
 * The data of a successful call; throws an `ApiFailure` otherwise. Errors that
 * the contract does not list (401 before a handler runs) carry the same
 * `{code, message}` body, so the message is read at run time.
 */
export function expectOk<T>(result: {
  data?: T;
  error?: unknown;
  response: Response;
}): T {
  const { data, error, response } = result;
  if (!response.ok) {
    throw new ApiFailure(
      response.status,
      errorMessage(error),
      bodyField(error, "code"),
      error,
    );
  }
  return data as T;
}

/** The message of anything a call may throw ("" when there is none). */
export function failureMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : "";
}
