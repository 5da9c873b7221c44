import { type QueryKey, type UseQueryOptions } from "@tanstack/react-query";
import { useCallback } from "react";
import { useToast } from "@/components/toast";
import { ApiFailure, failureMessage } from "@/lib/api-client";
import type { Problem } from "@/lib/problems";
import { useQueryFailure } from "@/lib/query-client";
import { useSession } from "@/lib/session";
import type { Writer } from "@/features/dashboards/types";
import { reviewQueueQuery, staffArticlesQuery, writersQuery } from "./queries";
import { useQuery } from "@/lib/use-query";

/** A failed staff call as spec §8 words it: "Failed to fetch articles: {message}". */
function failureText(what: string, cause: unknown): string {
  const message = failureMessage(cause);
  return message ? `${what}: ${message}` : what;
}

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
      notify({
        title: "Error",
        description: failureText(what, cause),
        variant: "destructive",
      });
      if (cause instanceof ApiFailure && cause.signedOut) expire();
    },
    [notify, expire],
  );
}

/**
 * A failed staff write as a form's problem (`useForm`'s `refused`), said in a
 * toast as `useReportFailure` says it; a 401 also signs the user out here.
 */
export function useStaffProblem() {
  const { expire } = useSession();
  return useCallback(
    (what: string, cause: unknown): Problem => {
      if (cause instanceof ApiFailure && cause.signedOut) expire();
      return { title: "Error", message: failureText(what, cause), fields: [] };
    },
    [expire],
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

const NO_WRITERS: readonly Writer[] = [];

/** The writers for the content director's author choice (empty until loaded). */
export function useWriters(): readonly Writer[] {
  return useStaffList(writersQuery(), "Failed to fetch writers") ?? NO_WRITERS;
}
