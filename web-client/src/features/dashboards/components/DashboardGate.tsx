import { useEffect } from "react";
import { useLocation } from "wouter";
import { LoadingSection } from "@/components/LoadingSection";
import { useDocumentTitle } from "@/lib/document-title";
import { useSession } from "@/lib/session";
import { dashboardTitle, type StaffRole } from "@/lib/staff-roles";
import type { EditorComponent } from "@/features/dashboards/types";
import { ContentDirectorDashboard, WriterDashboard } from "./ArticlesDashboard";
import { AdminDashboard } from "./AdminDashboard";
import { EducatorDashboard } from "./EducatorDashboard";

/**
 * Spec §4 "Dashboard guards": "Loading..." while the session is confirmed,
 * then /key-login unless the signed-in role is this dashboard's. The server
 * enforces the same rules on every staff call; this only picks the screen.
 */
export function DashboardGate({
  role,
  Editor,
  onArticlesChanged,
}: {
  role: StaffRole;
  Editor: EditorComponent;
  /** Marks the public pages' copies of articles stale after a staff change. */
  onArticlesChanged?: () => void;
}) {
  const { user, loading } = useSession();
  const [, navigate] = useLocation();
  const title = dashboardTitle(role);
  const allowed = !loading && user?.role === role;
  useDocumentTitle(title);

  useEffect(() => {
    if (!loading && !allowed) navigate("/key-login", { replace: true });
  }, [loading, allowed, navigate]);

  if (!allowed || !user) return <LoadingSection title={title} />;
  switch (role) {
    case "writer":
      return (
        <WriterDashboard
          user={user}
          Editor={Editor}
          onArticlesChanged={onArticlesChanged}
        />
      );
    case "content-director":
      return (
        <ContentDirectorDashboard
          user={user}
          Editor={Editor}
          onArticlesChanged={onArticlesChanged}
        />
      );
    case "admin":
      return <AdminDashboard user={user} />;
    case "educator":
      return <EducatorDashboard user={user} />;
  }
}
