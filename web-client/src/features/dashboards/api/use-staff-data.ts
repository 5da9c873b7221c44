import { useCallback, useEffect, useState } from "react";
import { useToast } from "@/components/toast";
import { ApiFailure, failureMessage } from "@/lib/api-client";
import { useSession } from "@/lib/session";
import type { Writer } from "@/features/dashboards/types";
import { listArticles, listWriters } from "./staff-articles";

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
 * A list a dashboard shows (`null` while the first load runs) and a way to
 * reload it. A failed load is reported as "{what}: {message}" and leaves the
 * list as it was (empty if it never loaded).
 */
export function useStaffList<T>(load: () => Promise<T[]>, what: string) {
  const report = useReportFailure();
  const [items, setItems] = useState<T[] | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let cancelled = false;
    load().then(
      (list) => {
        if (!cancelled) setItems(list);
      },
      (cause: unknown) => {
        if (cancelled) return;
        report(what, cause);
        setItems((current) => current ?? []);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [version, load, what, report]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { items, reload };
}

/** The dashboard's articles (`null` while the first load runs) and a way to reload them. */
export function useStaffArticles() {
  const { items, reload } = useStaffList(
    listArticles,
    "Failed to fetch articles",
  );
  return { articles: items, reload };
}

/**
 * Runs a row action (`busyId` names the row meanwhile), then `after`; a
 * failure is reported as "{what}: {message}".
 */
export function useRowAction(after: () => void) {
  const report = useReportFailure();
  const [busyId, setBusyId] = useState<string | null>(null);
  const run = useCallback(
    async (id: string, what: string, action: () => Promise<void>) => {
      setBusyId(id);
      try {
        await action();
        after();
      } catch (cause) {
        report(what, cause);
      } finally {
        setBusyId(null);
      }
    },
    [after, report],
  );
  return { busyId, run };
}

/** The writers for the content director's author choice (empty until loaded). */
export function useWriters(): readonly Writer[] {
  const report = useReportFailure();
  const [writers, setWriters] = useState<readonly Writer[]>([]);

  useEffect(() => {
    let cancelled = false;
    listWriters().then(
      (list) => {
        if (!cancelled) setWriters(list);
      },
      (cause: unknown) => {
        if (!cancelled) report("Failed to fetch writers", cause);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [report]);

  return writers;
}
