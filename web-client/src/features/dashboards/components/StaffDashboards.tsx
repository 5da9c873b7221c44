import type { StaffUser } from "@/lib/session";
import { DashboardFrame } from "./DashboardFrame";

/** Page views and magazine uploads arrive in a later release. */
export function AdminDashboard({ user }: { user: StaffUser }) {
  return (
    <DashboardFrame user={user}>
      <div className="empty-state">
        <p className="empty-title">Coming soon</p>
        <p className="muted">
          Page-view statistics and magazine uploads will appear here.
        </p>
      </div>
    </DashboardFrame>
  );
}

// Spec §9: the educator figures are fixed.
const EDUCATOR_STATS = [
  { value: "3", label: "Packs available" },
  { value: "105", label: "Total downloads" },
  { value: "120", label: "Students reached" },
] as const;

export function EducatorDashboard({ user }: { user: StaffUser }) {
  return (
    <DashboardFrame user={user}>
      <ul className="stat-grid">
        {EDUCATOR_STATS.map((stat) => (
          <li key={stat.label} className="stat-card">
            <span className="stat-value">{stat.value}</span>
            <span className="stat-label">{stat.label}</span>
          </li>
        ))}
      </ul>
    </DashboardFrame>
  );
}
