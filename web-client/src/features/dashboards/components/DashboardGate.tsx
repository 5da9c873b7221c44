import { useEffect } from "react";
import { useLocation } from "wouter";
import { useDocumentTitle } from "@/lib/document-title";

export const DASHBOARD_ROLES = [
  "admin",
  "writer",
  "educator",
  "content-director",
] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

export function isDashboardRole(value: string): value is DashboardRole {
  return (DASHBOARD_ROLES as readonly string[]).includes(value);
}

/**
 * Dashboards render only in the browser. There is no session API yet, so no
 * one is signed in: after mounting, the guard sends the visitor to /key-login.
 */
export function DashboardGate({ role }: { role: DashboardRole }) {
  const [, navigate] = useLocation();
  useDocumentTitle("Dashboard");

  useEffect(() => {
    navigate("/key-login", { replace: true });
  }, [navigate, role]);

  return (
    <div className="section">
      <div className="container">
        <h1 className="sr-only">Dashboard</h1>
        <p className="status-text" role="status">
          Loading...
        </p>
      </div>
    </div>
  );
}
