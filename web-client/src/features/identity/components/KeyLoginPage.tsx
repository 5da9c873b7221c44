import { useEffect, useState, type FormEvent } from "react";
import { Link, useLocation } from "wouter";
import { useToast } from "@/components/toast";
import { useDocumentTitle } from "@/lib/document-title";
import { useSession } from "@/lib/session";
import { dashboardPath } from "@/lib/staff-roles";
import { PAGE_TITLES } from "@/lib/pages.gen";
import { ANSWER_ID, useFormAnswer } from "@/lib/form-answer";
import { FieldError, invalidProps } from "@/components/InputField";
import { nextDownload } from "@/features/identity/next-path";

export function KeyLoginPage() {
  useDocumentTitle(PAGE_TITLES["/key-login"]);
  const { login, user, loading } = useSession();
  const notify = useToast();
  const [, navigate] = useLocation();
  const [key, setKey] = useState("");
  const [busy, setBusy] = useState(false);
  const answer = useFormAnswer();
  // What went wrong, beside the key (also for a sign-in posted without JavaScript).
  const [problem, setProblem] = useState(answer?.error?.message ?? "");

  // A link from the team's email to a staff download: signed in already, it
  // starts at once (and the dashboard opens); otherwise once signed in.
  useEffect(() => {
    const next = nextDownload(window.location.search);
    if (next && user && !loading) {
      navigate(dashboardPath(user.role));
      window.location.assign(next);
    }
  }, [user, loading, navigate]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const outcome = await login(key.trim());
    setBusy(false);
    setProblem(outcome.ok ? "" : outcome.message);
    if (!outcome.ok) {
      document.getElementById("access-key")?.focus();
      notify({
        title: "Login Failed",
        description: outcome.message,
        variant: "destructive",
      });
      return;
    }
    notify({
      title: "Login successful!",
      description: "Welcome back to your dashboard.",
    });
    // With a download to start, the effect above takes over once signed in.
    if (nextDownload(window.location.search)) return;
    navigate(dashboardPath(outcome.user.role));
  }

  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">Access Key Login</h1>
        <p>Enter the access key you were given to open your dashboard.</p>
        <form
          className="form"
          method="post"
          onSubmit={(event) => void onSubmit(event)}
        >
          <div className="field">
            <label htmlFor="access-key">Access Key</label>
            <input
              id="access-key"
              name="access_key"
              type="password"
              autoComplete="current-password"
              required
              value={key}
              onChange={(event) => setKey(event.target.value)}
              {...invalidProps("access-key", problem || undefined)}
            />
            <div id={ANSWER_ID}>
              <FieldError id="access-key" error={problem || undefined} />
            </div>
          </div>
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={busy}
          >
            {busy ? "Signing in..." : "Sign In"}
          </button>
        </form>
        <p>
          <Link href="/login">Back to regular login</Link>
        </p>
      </div>
    </div>
  );
}
