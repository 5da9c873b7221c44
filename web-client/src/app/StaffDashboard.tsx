import { DashboardGate } from "@/features/dashboards";
import { ArticleEditor } from "@/features/editor";
import type { StaffRole } from "@/lib/staff-roles";

/**
 * A dashboard with the article editor plugged in. Loaded lazily by the routes:
 * dashboards are only ever rendered in the browser (the server sends a shell),
 * so readers never download them.
 */
export function StaffDashboard({ role }: { role: StaffRole }) {
  return <DashboardGate role={role} Editor={ArticleEditor} />;
}
