import type { Middleware } from "openapi-fetch";
import { api } from "@/lib/api-client";

/**
 * When the server cannot check the session for a moment (503
 * `service_unavailable`: its database is unreachable or restarting), it says
 * so before any handler runs, so nothing was done and the call can be sent
 * again. The signed-in pages (dashboards, the reader's account) install this:
 * each such call is sent again after `Retry-After` seconds, up to `RETRIES`
 * times, while `ServerNotice` says "Server unavailable, retrying…". After that
 * the 503 reaches the caller, which keeps what was typed: a 503 never signs
 * anyone out.
 */
export const RETRIES = 3;
/** Seconds to wait when the server does not say, and the most it may ask. */
const DEFAULT_WAIT = 5;
const LONGEST_WAIT = 30;

let waiting = 0;
const listeners = new Set<() => void>();

function setWaiting(change: number) {
  waiting += change;
  for (const listener of listeners) listener();
}

/** For `useSyncExternalStore`: whether a call is waiting to be sent again. */
export function subscribeRetrying(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isRetrying(): boolean {
  return waiting > 0;
}

async function unavailable(response: Response): Promise<boolean> {
  if (response.status !== 503) return false;
  try {
    const body: unknown = await response.clone().json();
    return (
      typeof body === "object" &&
      body !== null &&
      (body as { code?: unknown }).code === "service_unavailable"
    );
  } catch {
    return false;
  }
}

function waitFor(response: Response): number {
  const seconds = Number(response.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0
    ? Math.min(seconds, LONGEST_WAIT)
    : DEFAULT_WAIT;
}

const sleep = (seconds: number) =>
  new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** A copy of each request as sent, to send again (fetch reads the body). */
const copies = new Map<string, Request>();

export const retryWhenUnavailable: Middleware = {
  onRequest({ request, id }) {
    copies.set(id, request.clone());
    return undefined;
  },
  async onResponse({ response, id, options }) {
    const copy = copies.get(id);
    copies.delete(id);
    let last = response;
    for (let attempt = 0; copy && attempt < RETRIES; attempt++) {
      if (!(await unavailable(last))) break;
      setWaiting(1);
      try {
        await sleep(waitFor(last));
      } finally {
        setWaiting(-1);
      }
      // Called on the global object: the browser's fetch refuses any other `this`.
      last = await options.fetch.call(globalThis, copy.clone());
    }
    return last === response ? undefined : last;
  },
  onError({ id }) {
    copies.delete(id);
    return undefined;
  },
};

let installed = false;

/** Installs `retryWhenUnavailable` on the API client, once. */
export function retryCallsWhenUnavailable() {
  if (installed) return;
  installed = true;
  api.use(retryWhenUnavailable);
}
