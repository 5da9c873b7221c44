import { useState } from "react";
import { Link, useLocation } from "wouter";
import { useDocumentTitle } from "@/lib/document-title";
import { PAGE_TITLES } from "@/lib/pages.gen";
import { useRawSearch } from "@/lib/use-raw-search";
import { resetPassword } from "@/features/readers/api/readers";
import {
  answerNotice,
  useFormAction,
} from "@/features/readers/use-form-action";
import { ANSWER_ID, useFormAnswer } from "@/lib/form-answer";
import { NewPasswordFields } from "./NewPasswordFields";
import { Notice } from "./Notice";

/** Where an emailed password reset link leads: choose the new password. */
export function ResetPasswordPage() {
  useDocumentTitle(PAGE_TITLES["/reset-password"]);
  const [, navigate] = useLocation();
  const token = new URLSearchParams(useRawSearch()).get("token") ?? "";
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const answer = useFormAnswer();
  const form = useFormAction(
    () => resetPassword(token, password, confirm),
    () => {
      navigate("/account");
      return null;
    },
    undefined,
    answerNotice(answer),
  );

  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">Choose a new password</h1>
        <p>At least 6 characters. You&apos;ll be signed in on this device.</p>
        <form className="form" method="post" onSubmit={form.onSubmit}>
          <input type="hidden" name="token" value={token} />
          <NewPasswordFields
            idPrefix="new-password"
            password={password}
            confirm={confirm}
            onPassword={setPassword}
            onConfirm={setConfirm}
          />
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={form.busy || token === ""}
          >
            {form.busy ? "Saving..." : "Save new password"}
          </button>
          <Notice id={ANSWER_ID} notice={form.notice} />
        </form>
        <p>
          <Link href="/forgot-password">Ask for a new link</Link>
        </p>
      </div>
    </div>
  );
}
