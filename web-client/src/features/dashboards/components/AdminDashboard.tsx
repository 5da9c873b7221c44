import type { StaffUser } from "@/lib/session";
import {
  magazinesQuery,
  staffMembersQuery,
} from "@/features/dashboards/api/queries";
import { useStaffList } from "@/features/dashboards/api/use-staff-data";
import { DashboardFrame } from "./DashboardFrame";
import { MagazinesPanel } from "./MagazinesPanel";
import { PacksPanel } from "./PacksPanel";
import { ProfilePanel } from "./ProfilePanel";
import { ResponsesPanel } from "./ResponsesPanel";
import { ReviewQueue } from "./ReviewQueue";
import { StaffPanel } from "./StaffPanel";
import { ViewStatsPanel } from "./ViewStatsPanel";

/**
 * Spec §2 Admin dashboard: readership figures, magazine issues, the packs, and
 * staff; and the review queue, as the admin reviews pieces too (issue 14).
 */
export function AdminDashboard({ user }: { user: StaffUser }) {
  const magazines = useStaffList(magazinesQuery(), "Failed to fetch magazines");
  const staff = useStaffList(staffMembersQuery(), "Failed to fetch staff");
  // Everyone with a public page to edit: active members who write (not educators).
  const contributors = staff?.filter(
    (m) => m.active && m.role !== "educator" && m.id !== user.id,
  );

  return (
    <DashboardFrame user={user}>
      <ViewStatsPanel magazines={magazines?.length ?? null} />
      <ReviewQueue />
      <ResponsesPanel />
      <MagazinesPanel magazines={magazines} />
      <PacksPanel />
      <StaffPanel selfId={user.id} />
      <ProfilePanel members={contributors} />
    </DashboardFrame>
  );
}
