import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { ServerNotice } from "@/components/ServerNotice";
import { invalidatePublicArticles } from "@/features/content";
import { DashboardGate } from "@/features/dashboards";
import { ArticleEditor } from "@/features/editor";
import type { StaffRole } from "@/lib/staff-roles";
import { retryCallsWhenUnavailable } from "@/lib/unavailable";

// A moment without the database retries the dashboard's calls instead of
// failing them (or signing anyone out).
retryCallsWhenUnavailable();

/**
 * A dashboard with the article editor plugged in. Loaded lazily by the routes:
 * dashboards are only ever rendered in the browser (the server sends a shell),
 * so readers never download them.
 */
export function StaffDashboard({ role }: { role: StaffRole }) {
  const queryClient = useQueryClient();
  // A staff change to an article makes the public listings and article
  // pages in the cache stale: they are fetched again when next shown.
  const onArticlesChanged = useCallback(
    () => void invalidatePublicArticles(queryClient),
    [queryClient],
  );
  return (
    <>
      <ServerNotice />
      <DashboardGate
        role={role}
        Editor={ArticleEditor}
        onArticlesChanged={onArticlesChanged}
      />
    </>
  );
}
