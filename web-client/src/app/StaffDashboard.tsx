import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { ServerNotice } from "@/components/ServerNotice";
import { invalidatePublicArticles } from "@/features/content";
import { DashboardGate, type PublicCopies } from "@/features/dashboards";
import { ArticleEditor } from "@/features/editor";
import {
  invalidatePublicMagazine,
  invalidatePublicPacks,
} from "@/features/outreach/api/keys";
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
  // A staff change to an article, an issue or the packs makes the public
  // pages' copies in the cache stale: they are fetched again when next shown.
  const publicCopies = useMemo<PublicCopies>(
    () => ({
      articles: () => void invalidatePublicArticles(queryClient),
      magazines: () => void invalidatePublicMagazine(queryClient),
      packs: () => void invalidatePublicPacks(queryClient),
    }),
    [queryClient],
  );
  return (
    <>
      <ServerNotice />
      <DashboardGate
        role={role}
        Editor={ArticleEditor}
        publicCopies={publicCopies}
      />
    </>
  );
}
