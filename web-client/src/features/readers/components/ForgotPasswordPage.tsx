import { useState } from "react";
import { Link } from "wouter";
import { InputField } from "@/components/InputField";
import { useDocumentTitle } from "@/lib/document-title";
import { PAGE_TITLES } from "@/lib/pages.gen";
import { requestPasswordReset } from "@/features/readers/api/readers";
import {
  answerNotice,
  sent,
  useFormAction,
} from "@/features/readers/use-form-action";
import { ANSWER_ID, answered, useFormAnswer } from "@/lib/form-answer";
import { Notice } from "./Notice";

/** `/forgot-password`: an emailed link to choose a new password. */
export function ForgotPasswordPage() {
  useDocumentTitle(PAGE_TITLES["/forgot-password"]);
  const answer = useFormAnswer();
  const [email, setEmail] = useState(() => answered(answer, "email"));
  const form = useFormAction(
    () => requestPasswordReset(email),
    sent,
    undefined,
    answerNotice(answer),
  );

  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">Forgot your password?</h1>
        <p>
          Enter the email address of your account and we&apos;ll email you a
          link to choose a new password.
        </p>
        <form className="form" method="post" onSubmit={form.onSubmit}>
          <InputField
            id="reset-email"
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={form.busy}
          >
            {form.busy ? "Sending..." : "Email me a reset link"}
          </button>
          <Notice id={ANSWER_ID} notice={form.notice} />
        </form>
        <p>
          <Link href="/login">Back to sign in</Link>
        </p>
      </div>
    </div>
  );
}
