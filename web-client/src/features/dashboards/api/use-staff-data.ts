import { useCallback, useEffect, useState } from "react";
import { useToast } from "@/components/toast";
import { ApiFailure, failureMessage } from "@/lib/api-client";
import { useSession } from "@/lib/session";
import type { StaffArticle, Writer } from "@/features/dashboards/types";
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

/** The dashboard's articles (`null` while the first load runs) and a way to reload them. */
export function useStaffArticles() {
  const report = useReportFailure();
  const [articles, setArticles] = useState<StaffArticle[] | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let cancelled = false;
    listArticles().then(
      (list) => {
        if (!cancelled) setArticles(list);
      },
      (cause: unknown) => {
        if (cancelled) return;
        report("Failed to fetch articles", cause);
        setArticles((current) => current ?? []);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [version, report]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { articles, reload };
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
