import { Link } from "wouter";
import { ButtonLink } from "@/components/Button";
import { useDocumentTitle } from "@/lib/document-title";
import { useSite } from "@/lib/site";
import { PAGE_TITLES } from "@/lib/pages.gen";

export function LoginPage() {
  const { name } = useSite();
  useDocumentTitle(PAGE_TITLES["/login"]);
  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">Team Access</h1>
        <p>
          Writers, editors, educators and administrators of {name} sign in with
          the personal access key they received from the team.
        </p>
        <ButtonLink href="/key-login" size="lg">
          Sign in with Access Key
        </ButtonLink>
        <p className="muted">
          Want to write for us?{" "}
          <Link href="/contributors">Become a contributor</Link> or{" "}
          <Link href="/signup">create a reader account</Link>.
        </p>
      </div>
    </div>
  );
}
