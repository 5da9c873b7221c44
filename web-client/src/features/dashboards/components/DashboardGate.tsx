import { useEffect } from "react";
import { useLocation } from "wouter";
import { LoadingSection } from "@/components/LoadingSection";
import { ButtonLink } from "@/components/Button";
import { useDocumentTitle } from "@/lib/document-title";
import { useSession } from "@/lib/session";
import {
  dashboardPath,
  dashboardTitle,
  type StaffRole,
} from "@/lib/staff-roles";
import {
  PublicCopiesContext,
  type PublicCopies,
} from "@/features/dashboards/api/changes";
import type { EditorComponent } from "@/features/dashboards/types";
import { ContentDirectorDashboard, WriterDashboard } from "./ArticlesDashboard";
import { AdminDashboard } from "./AdminDashboard";
import { EducatorDashboard } from "./EducatorDashboard";

/** Whom each dashboard is for. */
const FOR: Record<StaffRole, string> = {
  admin: "admins",
  writer: "writers",
  educator: "educators",
  "content-director": "the content director",
};

/** How each role is named to people. */
const ROLE_NAMES: Record<StaffRole, string> = {
  admin: "an admin",
  writer: "a writer",
  educator: "an educator",
  "content-director": "the content director",
};

/**
 * A staff member who opened another role's dashboard is told why it is not
 * theirs, with the way to their own (not sent to the key form unexplained).
 */
function OtherRolesDashboard({
  role,
  user,
}: {
  role: StaffRole;
  user: { name: string; role: StaffRole };
}) {
  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">{dashboardTitle(role)}</h1>
        <p role="alert">
          This dashboard is for {FOR[role]}. You are signed in as {user.name},{" "}
          {ROLE_NAMES[user.role]}.
        </p>
        <ButtonLink href={dashboardPath(user.role)}>
          Go to your {dashboardTitle(user.role)}
        </ButtonLink>
        <p>
          Have another access key? <a href="/key-login">Sign in with it</a>.
        </p>
      </div>
    </div>
  );
}

/**
 * Spec §4 "Dashboard guards": "Loading..." while the session is confirmed,
 * then /key-login when nobody is signed in; someone signed in with another
 * role is told whose dashboard it is. The server enforces the same rules on
 * every staff call; this only picks the screen.
 */
export function DashboardGate({
  role,
  Editor,
  publicCopies,
}: {
  role: StaffRole;
  Editor: EditorComponent;
  /** Marks the public pages' copies of what staff changed stale. */
  publicCopies: PublicCopies;
}) {
  const { user, loading } = useSession();
  const [, navigate] = useLocation();
  const title = dashboardTitle(role);
  const allowed = !loading && user?.role === role;
  useDocumentTitle(title);

  useEffect(() => {
    if (!loading && !user) navigate("/key-login", { replace: true });
  }, [loading, user, navigate]);

  if (!loading && user && !allowed) {
    return <OtherRolesDashboard role={role} user={user} />;
  }
  if (!allowed || !user) return <LoadingSection title={title} />;
  const dashboard = {
    writer: <WriterDashboard user={user} Editor={Editor} />,
    "content-director": (
      <ContentDirectorDashboard user={user} Editor={Editor} />
    ),
    admin: <AdminDashboard user={user} />,
    educator: <EducatorDashboard user={user} />,
  }[role];
  return (
    <PublicCopiesContext value={publicCopies}>{dashboard}</PublicCopiesContext>
  );
}
