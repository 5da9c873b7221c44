import type { StaffUser } from "@/lib/session";
import { magazinesQuery } from "@/features/dashboards/api/queries";
import { useStaffList } from "@/features/dashboards/api/use-staff-data";
import { DashboardFrame } from "./DashboardFrame";
import { MagazinesPanel } from "./MagazinesPanel";
import { PacksPanel } from "./PacksPanel";
import { ReviewQueue } from "./ReviewQueue";
import { StaffPanel } from "./StaffPanel";
import { ViewStatsPanel } from "./ViewStatsPanel";

/**
 * Spec §2 Admin dashboard: readership figures, magazine issues, the packs, and
 * staff; and the review queue, as the admin reviews pieces too (issue 14).
 */
export function AdminDashboard({ user }: { user: StaffUser }) {
  const magazines = useStaffList(magazinesQuery(), "Failed to fetch magazines");

  return (
    <DashboardFrame user={user}>
      <ViewStatsPanel magazines={magazines?.length ?? null} />
      <ReviewQueue />
      <MagazinesPanel magazines={magazines} />
      <PacksPanel />
      <StaffPanel selfId={user.id} />
    </DashboardFrame>
  );
}
