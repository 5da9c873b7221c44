import { Link, useLocation } from "wouter";
import { useDocumentTitle } from "@/lib/document-title";
import { PAGE_TITLES } from "@/lib/pages.gen";
import { useForm } from "@/lib/use-form";
import { useRawSearch } from "@/lib/use-raw-search";
import { signInWithLink } from "@/features/readers/api/readers";
import {
  answerProblem,
  formNotice,
  refusal,
} from "@/features/readers/form-notice";
import { ANSWER_ID, doneMessage, useFormAnswer } from "@/lib/form-answer";
import { Notice } from "./Notice";

/**
 * Where an emailed sign-in link leads. Opening it signs nobody in (mail
 * scanners open links); the reader presses the button, which uses the link.
 */
export function SignInLinkPage() {
  useDocumentTitle(PAGE_TITLES["/email/sign-in"]);
  const [, navigate] = useLocation();
  const token = new URLSearchParams(useRawSearch()).get("token") ?? "";
  const answer = useFormAnswer();
  const form = useForm({
    initial: {},
    problem: () => answerProblem(answer),
    done: answer?.done !== undefined,
    send: () => signInWithLink(token),
    refused: refusal,
    onDone: () => navigate("/account"),
    toast: false,
  });

  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">Sign in with your link</h1>
        <p>Press the button to sign in on this device.</p>
        <form method="post" onSubmit={form.submit}>
          <input type="hidden" name="token" value={token} />
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={form.busy || token === ""}
          >
            {form.busy ? "Signing in..." : "Sign In"}
          </button>
        </form>
        <Notice
          id={ANSWER_ID}
          notice={
            token === ""
              ? {
                  kind: "error",
                  text: "This page needs the link from your email. Open the link from the email again.",
                }
              : formNotice(form.problem, form.done ? doneMessage(answer) : null)
          }
        />
        <p>
          <Link href="/login">Ask for a new link</Link>
        </p>
      </div>
    </div>
  );
}
