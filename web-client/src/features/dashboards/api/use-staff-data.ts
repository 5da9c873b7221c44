import {
  useQuery,
  type QueryKey,
  type UseQueryOptions,
} from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useClearToasts, useToast } from "@/components/toast";
import { ApiFailure, failureMessage } from "@/lib/api-client";
import { useQueryFailure } from "@/lib/query-client";
import { useSession } from "@/lib/session";
import type { Writer } from "@/features/dashboards/types";
import { reviewQueueQuery, staffArticlesQuery, writersQuery } from "./queries";

/**
 * Reports a failed staff call as spec §8 words it ("Failed to fetch articles:
 * {message}"); a 401 also signs the user out here, and the dashboard guard
 * then sends them to /key-login.
 */
export function useReportFailure() {
  const notify = useToast();
  const { expire } = useSession();
  return useCallback(
    (what: string, cause: unknown) => {
      const message = failureMessage(cause);
      notify({
        title: "Error",
        description: message ? `${what}: ${message}` : what,
        variant: "destructive",
      });
      if (cause instanceof ApiFailure && cause.signedOut) expire();
    },
    [notify, expire],
  );
}

/**
 * A list a dashboard shows, through its query (`null` while the first load
 * runs). A failed load is reported as "{what}: {message}" and leaves the list
 * as it was (empty if it never loaded).
 */
export function useStaffList<T, Key extends QueryKey>(
  options: UseQueryOptions<T[], Error, T[], Key>,
  what: string,
): T[] | null {
  const report = useReportFailure();
  const { data, isError, isFetching } = useQuery(options);
  useQueryFailure(options.queryKey, (cause) => report(what, cause));
  if (data) return data;
  return isError && !isFetching ? [] : null;
}

/** Pieces waiting for review (`null` while the first load runs). */
export function useReviewQueue() {
  return useStaffList(reviewQueueQuery(), "Failed to fetch the review queue");
}

/** The dashboard's articles (`null` while the first load runs). */
export function useStaffArticles() {
  return useStaffList(staffArticlesQuery(), "Failed to fetch articles");
}

/**
 * Runs a row action (`busyId` names the row meanwhile), then `after` (which
 * refreshes what the action changed); a failure is reported as
 * "{what}: {message}".
 */
export function useRowAction(after: () => Promise<void>) {
  const report = useReportFailure();
  const clearToasts = useClearToasts();
  const [busyId, setBusyId] = useState<string | null>(null);
  const run = useCallback(
    async (id: string, what: string, action: () => Promise<void>) => {
      // A new attempt makes the last error stale: it goes, whatever this one says.
      clearToasts();
      setBusyId(id);
      try {
        await action();
        await after();
      } catch (cause) {
        report(what, cause);
      } finally {
        setBusyId(null);
      }
    },
    [after, report, clearToasts],
  );
  return { busyId, run };
}

const NO_WRITERS: readonly Writer[] = [];

/** The writers for the content director's author choice (empty until loaded). */
export function useWriters(): readonly Writer[] {
  return useStaffList(writersQuery(), "Failed to fetch writers") ?? NO_WRITERS;
}
