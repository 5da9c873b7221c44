import { useEffect } from "react";
import { Link, useLocation } from "wouter";
import { useToast } from "@/components/toast";
import { useDocumentTitle } from "@/lib/document-title";
import { useSession } from "@/lib/session";
import { dashboardPath } from "@/lib/staff-roles";
import { PAGE_TITLES } from "@/lib/pages.gen";
import { ANSWER_ID, useFormAnswer } from "@/lib/form-answer";
import { FieldError, invalidProps } from "@/components/InputField";
import { messageFor, type Problem } from "@/lib/problems";
import { useForm } from "@/lib/use-form";
import { nextDownload } from "@/features/identity/next-path";

/** A refused key: said beside the field (which takes the focus) and in a toast. */
const loginFailed = (message: string): Problem => ({
  title: "Login Failed",
  message,
  fields: ["key"],
});

export function KeyLoginPage() {
  useDocumentTitle(PAGE_TITLES["/key-login"]);
  const { login, user, loading } = useSession();
  const notify = useToast();
  const [, navigate] = useLocation();
  const answer = useFormAnswer();
  const form = useForm({
    initial: { key: "" },
    // Also what the server said to a sign-in posted without JavaScript.
    problem: () => (answer?.error ? loginFailed(answer.error.message) : null),
    send: async ({ key }) => {
      const outcome = await login(key.trim());
      return outcome.ok ? { ok: true as const, data: outcome.user } : outcome;
    },
    refused: ({ message }) => loginFailed(message),
    onDone: (user) => {
      notify({
        title: "Login successful!",
        description: "Welcome back to your dashboard.",
      });
      // With a download to start, the effect below takes over once signed in.
      if (nextDownload(window.location.search)) return;
      navigate(dashboardPath(user.role));
    },
    idOf: () => "access-key",
  });
  const problem = messageFor(form.problem, "key");

  // A link from the team's email to a staff download: signed in already, it
  // starts at once (and the dashboard opens); otherwise once signed in.
  useEffect(() => {
    const next = nextDownload(window.location.search);
    if (next && user && !loading) {
      navigate(dashboardPath(user.role));
      window.location.assign(next);
    }
  }, [user, loading, navigate]);

  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">Access Key Login</h1>
        <p>Enter the access key you were given to open your dashboard.</p>
        <form className="form" method="post" onSubmit={form.submit}>
          <div className="field">
            <label htmlFor="access-key">Access Key</label>
            <input
              id="access-key"
              name="access_key"
              type="password"
              autoComplete="current-password"
              required
              {...form.bind("key")}
              {...invalidProps("access-key", problem)}
            />
            <div id={ANSWER_ID}>
              <FieldError id="access-key" error={problem} />
            </div>
          </div>
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={form.busy}
          >
            {form.busy ? "Signing in..." : "Sign In"}
          </button>
        </form>
        <p>
          <Link href="/login">Back to regular login</Link>
        </p>
      </div>
    </div>
  );
}
