import { useState } from "react";
import { Link, useLocation } from "wouter";
import { ButtonLink } from "@/components/Button";
import { InputField } from "@/components/InputField";
import { useDocumentTitle } from "@/lib/document-title";
import { PAGE_TITLES } from "@/lib/pages.gen";
import {
  requestSignInLink,
  resendConfirmation,
  signIn,
} from "@/features/readers/api/readers";
import {
  answerNotice,
  sent,
  useFormAction,
} from "@/features/readers/use-form-action";
import { ANSWER_ID, answered, useFormAnswer } from "@/lib/form-answer";
import { Notice, type NoticeText } from "./Notice";

/**
 * `/login`: readers sign in with email and password, or ask for an emailed
 * one-time link. Staff use their access key at `/key-login`, linked below.
 */
export function ReaderLoginPage() {
  useDocumentTitle(PAGE_TITLES["/login"]);
  const [, navigate] = useLocation();
  const answer = useFormAnswer(null);
  const [email, setEmail] = useState(() => answered(answer, "email"));
  const [password, setPassword] = useState("");
  const [unconfirmed, setUnconfirmed] = useState(
    answer?.error?.code === "account_unconfirmed",
  );
  // One notice under the form, whichever button was pressed last.
  const notice = useState<NoticeText | null>(answerNotice(answer));
  const signingIn = useFormAction(
    async () => {
      const outcome = await signIn(email, password);
      setUnconfirmed(!outcome.ok && outcome.code === "account_unconfirmed");
      return outcome;
    },
    () => {
      navigate("/account");
      return null;
    },
    notice,
  );
  const linking = useFormAction(() => requestSignInLink(email), sent, notice);
  const confirming = useFormAction(
    () => resendConfirmation(email),
    sent,
    notice,
  );
  const busy = signingIn.busy || linking.busy || confirming.busy;

  function emailMe(action: typeof linking) {
    if (email.trim() === "") {
      notice[1]({ kind: "error", text: "Please enter your email address." });
      return;
    }
    action.submit();
  }

  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">Sign in</h1>
        <p>
          Sign in to your reader account to choose your interests and the emails
          you get.
        </p>
        <form
          id="reader-sign-in"
          className="form"
          method="post"
          onSubmit={signingIn.onSubmit}
        >
          <InputField
            id="reader-email"
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <InputField
            id="reader-password"
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={busy}
          >
            {signingIn.busy ? "Signing in..." : "Sign In"}
          </button>
          <Notice id={ANSWER_ID} notice={notice[0]} />
          {unconfirmed && (
            <button
              type="submit"
              name="intent"
              value="confirmation"
              formNoValidate
              className="btn btn-secondary btn-block"
              disabled={busy}
              onClick={(event) => {
                event.preventDefault();
                emailMe(confirming);
              }}
            >
              {confirming.busy ? "Sending..." : "Send a new confirmation link"}
            </button>
          )}
        </form>
        <p>
          <Link href="/forgot-password">Forgot your password?</Link>
        </p>
        <div className="auth-alternative">
          <p className="muted">No password at hand?</p>
          <button
            type="submit"
            form="reader-sign-in"
            name="intent"
            value="link"
            formNoValidate
            className="btn btn-secondary btn-block"
            disabled={busy}
            onClick={(event) => {
              event.preventDefault();
              emailMe(linking);
            }}
          >
            {linking.busy ? "Sending..." : "Email me a sign-in link"}
          </button>
        </div>
        <p>
          New here? <Link href="/signup">Create a reader account</Link>
        </p>
        <div className="auth-alternative">
          <h2 className="auth-subtitle">Team members</h2>
          <p className="muted">
            Writers, editors, educators and administrators sign in with the
            personal access key they received from the team.
          </p>
          <ButtonLink href="/key-login" variant="secondary">
            Sign in with Access Key
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}
