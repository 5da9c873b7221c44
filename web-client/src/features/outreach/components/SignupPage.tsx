import { Link } from "wouter";
import { useDocumentTitle } from "@/lib/document-title";
import { useSite } from "@/lib/site";

export function SignupPage() {
  const { name } = useSite();
  const title = `Join ${name}`;
  useDocumentTitle(title);
  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">{title}</h1>
        <p>
          Create a reader account to follow the topics you care about and hear
          first when the magazine and educational packs launch.
        </p>
        <p className="muted">Registration opens soon.</p>
        <p>
          Already have an account? <Link href="/login">Log in</Link>
        </p>
      </div>
    </div>
  );
}
