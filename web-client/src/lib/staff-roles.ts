import type { components } from "@/api/schema";

export type StaffRole = components["schemas"]["Role"];

interface Dashboard {
  path: string;
  /** The header link's label (spec §2 Header). */
  label: string;
  /** The dashboard's own heading. */
  title: string;
}

// Keyed by the contract's enum: a new role breaks the build here until it has
// a dashboard.
const DASHBOARDS: Record<StaffRole, Dashboard> = {
  admin: {
    path: "/dashboard/admin",
    label: "Dashboard",
    title: "Admin Dashboard",
  },
  writer: {
    path: "/dashboard/writer",
    label: "My Notebook",
    title: "My Notebook",
  },
  educator: {
    path: "/dashboard/educator",
    label: "Dashboard",
    title: "Educator Dashboard",
  },
  "content-director": {
    path: "/dashboard/content-director",
    label: "My Notebook",
    title: "Content Director Dashboard",
  },
};

export const STAFF_ROLES = Object.keys(DASHBOARDS) as readonly StaffRole[];

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && Object.hasOwn(DASHBOARDS, value);
}

/** Where a role's dashboard lives; an unknown role goes home. */
export function dashboardPath(role: string): string {
  return isStaffRole(role) ? DASHBOARDS[role].path : "/";
}

/** "My Notebook" for writers and the content director, "Dashboard" otherwise. */
export function dashboardLabel(role: string): string {
  return isStaffRole(role) ? DASHBOARDS[role].label : "Dashboard";
}

export function dashboardTitle(role: StaffRole): string {
  return DASHBOARDS[role].title;
}
