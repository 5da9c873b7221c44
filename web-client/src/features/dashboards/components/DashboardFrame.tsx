import type { ReactNode } from "react";
import { useLocation } from "wouter";
import { Button } from "@/components/Button";
import { useSession, type StaffUser } from "@/lib/session";
import { dashboardTitle } from "@/lib/staff-roles";

const ROLE_NAMES: Record<StaffUser["role"], string> = {
  admin: "Administrator",
  writer: "Writer",
  educator: "Educator",
  "content-director": "Content director",
};

/** A dashboard's heading, who is signed in, its actions and Logout. */
export function DashboardFrame({
  user,
  actions,
  children,
}: {
  user: StaffUser;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { logout } = useSession();
  const [, navigate] = useLocation();
  return (
    <div className="section">
      <div className="container dashboard">
        <header className="dashboard-head">
          <div>
            <h1 className="page-title">{dashboardTitle(user.role)}</h1>
            <p className="muted dashboard-who">
              Signed in as <strong>{user.name}</strong> ·{" "}
              {ROLE_NAMES[user.role]}
            </p>
          </div>
          <div className="dashboard-actions">
            {actions}
            <Button
              variant="quiet"
              onClick={() => {
                navigate("/");
                void logout();
              }}
            >
              Logout
            </Button>
          </div>
        </header>
        {children}
      </div>
    </div>
  );
}
