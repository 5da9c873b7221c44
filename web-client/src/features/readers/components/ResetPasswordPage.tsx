import { Link, useLocation } from "wouter";
import { useDocumentTitle } from "@/lib/document-title";
import { PAGE_TITLES } from "@/lib/pages.gen";
import { useForm } from "@/lib/use-form";
import { useRawSearch } from "@/lib/use-raw-search";
import { resetPassword } from "@/features/readers/api/readers";
import {
  answerProblem,
  formNotice,
  refusal,
} from "@/features/readers/form-notice";
import { ANSWER_ID, doneMessage, useFormAnswer } from "@/lib/form-answer";
import { NewPasswordFields } from "./NewPasswordFields";
import { Notice } from "./Notice";

/** Where an emailed password reset link leads: choose the new password. */
export function ResetPasswordPage() {
  useDocumentTitle(PAGE_TITLES["/reset-password"]);
  const [, navigate] = useLocation();
  const token = new URLSearchParams(useRawSearch()).get("token") ?? "";
  const answer = useFormAnswer();
  const form = useForm({
    initial: { password: "", confirm: "" },
    problem: () => answerProblem(answer),
    done: answer?.done !== undefined,
    send: ({ password, confirm }) => resetPassword(token, password, confirm),
    refused: refusal,
    onDone: () => navigate("/account"),
    toast: false,
  });

  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">Choose a new password</h1>
        <p>At least 6 characters. You&apos;ll be signed in on this device.</p>
        <form className="form" method="post" onSubmit={form.submit}>
          <input type="hidden" name="token" value={token} />
          <NewPasswordFields
            idPrefix="new-password"
            password={form.fields.password}
            confirm={form.fields.confirm}
            onPassword={(value) => form.set("password", value)}
            onConfirm={(value) => form.set("confirm", value)}
          />
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={form.busy || token === ""}
          >
            {form.busy ? "Saving..." : "Save new password"}
          </button>
          <Notice
            id={ANSWER_ID}
            notice={formNotice(
              form.problem,
              form.done ? doneMessage(answer) : null,
            )}
          />
        </form>
        <p>
          <Link href="/forgot-password">Ask for a new link</Link>
        </p>
      </div>
    </div>
  );
}
