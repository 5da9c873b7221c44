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
  answerProblem,
  formNotice,
  refusal,
} from "@/features/readers/form-notice";
import {
  ANSWER_ID,
  answered,
  doneMessage,
  useFormAnswer,
} from "@/lib/form-answer";
import { useForm } from "@/lib/use-form";
import { Notice } from "./Notice";

/** The form's buttons: sign in, or email a sign-in or confirmation link. */
type Intent = "sign-in" | "link" | "confirmation";

/**
 * `/login`: readers sign in with email and password, or ask for an emailed
 * one-time link. Staff use their access key at `/key-login`, linked below.
 */
export function ReaderLoginPage() {
  useDocumentTitle(PAGE_TITLES["/login"]);
  const [, navigate] = useLocation();
  const answer = useFormAnswer(null);
  const [unconfirmed, setUnconfirmed] = useState(
    answer?.error?.code === "account_unconfirmed",
  );
  // One notice under the form, whichever button was pressed last.
  const form = useForm({
    initial: () => ({ email: answered(answer, "email"), password: "" }),
    problem: () => answerProblem(answer),
    done: answer?.done !== undefined,
    check: ({ email }, intent: Intent) =>
      intent !== "sign-in" && email.trim() === ""
        ? { title: "", message: "Please enter your email address.", fields: [] }
        : null,
    send: async ({ email, password }, intent) => {
      if (intent === "link") return requestSignInLink(email);
      if (intent === "confirmation") return resendConfirmation(email);
      const outcome = await signIn(email, password);
      setUnconfirmed(!outcome.ok && outcome.code === "account_unconfirmed");
      return outcome;
    },
    refused: refusal,
    onDone: (_data, _fields, intent) => {
      if (intent === "sign-in") navigate("/account");
    },
    toast: false,
  });
  const { busy, sending } = form;
  // The server's own words of "we've emailed you".
  const sent =
    form.data && "message" in form.data
      ? form.data.message
      : doneMessage(answer);

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
          onSubmit={(event) => form.submit(event, "sign-in")}
        >
          <InputField
            id="reader-email"
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            {...form.bind("email")}
          />
          <InputField
            id="reader-password"
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            {...form.bind("password")}
          />
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={busy}
          >
            {sending === "sign-in" ? "Signing in..." : "Sign In"}
          </button>
          <Notice
            id={ANSWER_ID}
            notice={formNotice(form.problem, form.done ? sent : null)}
          />
          {unconfirmed && (
            <button
              type="submit"
              name="intent"
              value="confirmation"
              formNoValidate
              className="btn btn-secondary btn-block"
              disabled={busy}
              onClick={(event) => form.submit(event, "confirmation")}
            >
              {sending === "confirmation"
                ? "Sending..."
                : "Send a new confirmation link"}
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
            onClick={(event) => form.submit(event, "link")}
          >
            {sending === "link" ? "Sending..." : "Email me a sign-in link"}
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
