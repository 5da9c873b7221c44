import {
  hashKey,
  QueryClient,
  useQueryClient,
  type QueryKey,
} from "@tanstack/react-query";
import { useEffect, useEffectEvent } from "react";
import { ApiFailure } from "./api-client";

/**
 * The first element of every query key that holds staff-only data. A change
 * of signed-in user removes them all, so that nobody sees another's cache.
 */
export const STAFF_QUERIES = "staff";

/** How long fetched data counts as fresh: going back to a page within it
 * shows what was there without asking again. */
export const STALE_TIME_MS = 60_000;

/** Tries after the first one, for failures that may pass. */
const RETRIES = 2;

/**
 * A network failure or a 5xx answer may pass, so it is tried again; a 4xx
 * answer (401, 403, 404, a validation error) is the server's final word.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiFailure)
    return error.status === 0 || error.status >= 500;
  // fetch rejects with a TypeError when the request never got an answer.
  return error instanceof TypeError;
}

export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < RETRIES && isRetryable(error);
}

/**
 * The app's query cache. One per page load in the browser and one per render
 * on the server, never shared between requests.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: STALE_TIME_MS,
        retry: shouldRetry,
        // What a reader or an editor is looking at never changes because the
        // tab got focus back; pages re-read their data when they are opened.
        refetchOnWindowFocus: false,
      },
      mutations: {
        // A write is tried whatever the browser thinks of the network: a
        // failure is said at once, never left waiting for "online".
        networkMode: "always",
      },
    },
  });
}

/**
 * Fetches `queryKey` again after a change, where it is shown (elsewhere it is
 * marked stale): a fetch already under way (a list's first load, still
 * running when a write right after it finishes) may have read it before the
 * change, so it is cancelled rather than joined.
 */
export async function fetchAgain(
  queryClient: QueryClient,
  queryKey: QueryKey,
): Promise<void> {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}

/**
 * Calls `onFailure` once for each fetch of `queryKey` that fails for good
 * (after its retries) while the calling component is mounted, e.g. to show a
 * toast. A failure from before the component mounted is not reported again.
 */
export function useQueryFailure(
  queryKey: QueryKey,
  onFailure: (error: unknown) => void,
): void {
  const queryClient = useQueryClient();
  const report = useEffectEvent(onFailure);
  const hash = hashKey(queryKey);
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (
          event.type === "updated" &&
          event.action.type === "error" &&
          event.query.queryHash === hash
        ) {
          report(event.action.error);
        }
      }),
    [queryClient, hash],
  );
}
