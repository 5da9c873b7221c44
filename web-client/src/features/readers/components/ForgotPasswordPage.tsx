import { Link } from "wouter";
import { InputField } from "@/components/InputField";
import { useDocumentTitle } from "@/lib/document-title";
import { PAGE_TITLES } from "@/lib/pages.gen";
import { useForm } from "@/lib/use-form";
import { requestPasswordReset } from "@/features/readers/api/readers";
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
import { Notice } from "./Notice";

/** `/forgot-password`: an emailed link to choose a new password. */
export function ForgotPasswordPage() {
  useDocumentTitle(PAGE_TITLES["/forgot-password"]);
  const answer = useFormAnswer();
  const form = useForm({
    initial: () => ({ email: answered(answer, "email") }),
    problem: () => answerProblem(answer),
    done: answer?.done !== undefined,
    send: ({ email }) => requestPasswordReset(email),
    refused: refusal,
    toast: false,
  });
  // The server's own words of "we've emailed you".
  const sent = form.data?.message ?? doneMessage(answer);

  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">Forgot your password?</h1>
        <p>
          Enter the email address of your account and we&apos;ll email you a
          link to choose a new password.
        </p>
        <form className="form" method="post" onSubmit={form.submit}>
          <InputField
            id="reset-email"
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            {...form.bind("email")}
          />
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={form.busy}
          >
            {form.busy ? "Sending..." : "Email me a reset link"}
          </button>
          <Notice
            id={ANSWER_ID}
            notice={formNotice(form.problem, form.done ? sent : null)}
          />
        </form>
        <p>
          <Link href="/login">Back to sign in</Link>
        </p>
      </div>
    </div>
  );
}
