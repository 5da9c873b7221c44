import type { StaffUser } from "@/lib/session";
import { useStaffList } from "@/features/dashboards/api/use-staff-data";
import { listMagazines } from "@/features/dashboards/api/admin";
import { DashboardFrame } from "./DashboardFrame";
import { MagazinesPanel } from "./MagazinesPanel";
import { StaffPanel } from "./StaffPanel";
import { ViewStatsPanel } from "./ViewStatsPanel";

/** Spec §2 Admin dashboard: readership figures, magazine issues, and staff. */
export function AdminDashboard({ user }: { user: StaffUser }) {
  const { items: magazines, reload } = useStaffList(
    listMagazines,
    "Failed to fetch magazines",
  );

  return (
    <DashboardFrame user={user}>
      <ViewStatsPanel magazines={magazines?.length ?? null} />
      <MagazinesPanel magazines={magazines} onChanged={reload} />
      <StaffPanel selfId={user.id} />
    </DashboardFrame>
  );
}
