import { Link } from "wouter";
import { useDocumentTitle } from "@/lib/document-title";

// Static markup for now: signing in needs the session API (a later task).
export function KeyLoginPage() {
  useDocumentTitle("Access Key Login");
  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">Access Key Login</h1>
        <p>Enter the access key you were given to open your dashboard.</p>
        <form
          className="form"
          method="post"
          onSubmit={(event) => event.preventDefault()}
        >
          <div className="field">
            <label htmlFor="access-key">Access Key</label>
            <input
              id="access-key"
              name="access_key"
              type="password"
              autoComplete="current-password"
              required
            />
          </div>
          <button type="submit" className="btn btn-primary btn-block">
            Sign In
          </button>
        </form>
        <p>
          <Link href="/login">Back to regular login</Link>
        </p>
      </div>
    </div>
  );
}
