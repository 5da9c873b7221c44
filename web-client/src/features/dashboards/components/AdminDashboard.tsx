import type { StaffUser } from "@/lib/session";
import { magazinesQuery } from "@/features/dashboards/api/queries";
import { useStaffList } from "@/features/dashboards/api/use-staff-data";
import { DashboardFrame } from "./DashboardFrame";
import { MagazinesPanel } from "./MagazinesPanel";
import { StaffPanel } from "./StaffPanel";
import { ViewStatsPanel } from "./ViewStatsPanel";

/** Spec §2 Admin dashboard: readership figures, magazine issues, and staff. */
export function AdminDashboard({ user }: { user: StaffUser }) {
  const magazines = useStaffList(magazinesQuery(), "Failed to fetch magazines");

  return (
    <DashboardFrame user={user}>
      <ViewStatsPanel magazines={magazines?.length ?? null} />
      <MagazinesPanel magazines={magazines} />
      <StaffPanel selfId={user.id} />
    </DashboardFrame>
  );
}
