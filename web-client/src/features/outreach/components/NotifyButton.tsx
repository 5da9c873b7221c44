import { useRef, type MouseEvent } from "react";
import type { components } from "@/api/schema";
import { ButtonLink } from "@/components/Button";
import { useToast } from "@/components/toast";
import { signUpForLaunch } from "@/features/outreach/api/outreach";
import { validateNotify } from "@/features/outreach/validation";
import { Honeypot } from "./Honeypot";
import { DoneMessage } from "@/components/FormAnswer";
import { ANSWER_ID, answered, useFormAnswer } from "@/lib/form-answer";
import type { Problem } from "@/lib/problems";
import { useForm } from "@/lib/use-form";

const THANKS = "Thanks! You'll be the first to know when it's live.";

const GENERIC_ERROR = "Something went wrong. Please try again.";

/** A problem said in the dialog and a toast, which moves no focus. */
const said = (title: string, message: string): Problem => ({
  title,
  message,
  fields: [],
});

/**
 * "Notify Me When It's Ready": a link to the sign-up dialog (`#notify-…`).
 * Once hydrated its click opens the dialog as a modal; without JavaScript the
 * link shows the same dialog as the page's target, and its form posts to the
 * page, which then says how it went (`#answer`).
 */
/** What the dialog promises, by list, until it launches. */
const LAUNCH_PROMISE: Record<components["schemas"]["NotifyList"], string> = {
  magazine:
    "Leave your email and we will tell you as soon as the magazine launches.",
  packs:
    "Leave your email and we will tell you as soon as the educational packs launch.",
};

export function NotifyButton({
  list,
  label = "Notify Me When It's Ready",
  promise = LAUNCH_PROMISE[list],
}: {
  list: components["schemas"]["NotifyList"];
  /** The button's words (the launch pages keep the product's). */
  label?: string;
  /** What signing up brings, as the dialog says it. */
  promise?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const id = `notify-${list}`;
  const answer = useFormAnswer("notify");
  const mine = answered(answer, "list") === list ? answer : undefined;
  const toast = useToast();
  // Its message is repeated inside the dialog: the modal makes the toasts behind it inert.
  const form = useForm({
    initial: () => ({ email: answered(mine, "email"), website: "" }),
    problem: () => (mine?.error ? said("Error", mine.error.message) : null),
    check: ({ email }) => {
      const invalid = validateNotify(email);
      return invalid && said(invalid.title, invalid.message);
    },
    send: ({ email, website }) => signUpForLaunch(email.trim(), list, website),
    refused: ({ refused }) =>
      refused
        ? said(refused.title || "Error", refused.message)
        : said("Error", GENERIC_ERROR),
    onDone: () => {
      toast({ title: "Success!", description: THANKS });
      form.set("email", "");
      dialog.current?.close();
    },
  });
  const problem = form.problem?.message ?? "";

  function open(event: MouseEvent<HTMLAnchorElement>) {
    const box = dialog.current;
    if (!box || typeof box.showModal !== "function") return;
    event.preventDefault();
    if (!box.open) box.showModal();
    // The dialog's question, not its close button, is where people start.
    emailInput.current?.focus();
  }

  return (
    <>
      <ButtonLink href={`#${id}`} size="lg" native onClick={open}>
        {label}
      </ButtonLink>
      {mine?.done !== undefined ? (
        <DoneMessage title="Success!" text={THANKS} />
      ) : null}
      <dialog
        ref={dialog}
        id={id}
        className="notify-dialog"
        onClose={() => form.setProblem(null)}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
      >
        <div className="notify-dialog-head">
          <h2 id={`${id}-title`} className="notify-dialog-title">
            Get Notified
          </h2>
          <a
            href="#"
            role="button"
            className="notify-dialog-close"
            aria-label="Close"
            onClick={(event) => {
              event.preventDefault();
              dialog.current?.close();
            }}
          >
            ×
          </a>
        </div>
        <p id={`${id}-text`}>{promise}</p>
        <form className="form" method="post" noValidate onSubmit={form.submit}>
          <input type="hidden" name="intent" value="notify" />
          <input type="hidden" name="list" value={list} />
          <div className="field" id={mine?.error ? ANSWER_ID : undefined}>
            <label htmlFor={`${id}-email`}>Email address</label>
            <input
              ref={emailInput}
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="email"
              required
              value={form.fields.email}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-error` : undefined}
              onChange={(event) => form.set("email", event.target.value)}
            />
            {problem ? (
              <p id={`${id}-error`} className="field-error" role="alert">
                {problem}
              </p>
            ) : null}
          </div>
          <Honeypot
            id={`${id}-website`}
            value={form.fields.website}
            onChange={(value) => form.set("website", value)}
          />
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={form.busy}
          >
            {form.busy ? "Signing up..." : "Notify Me"}
          </button>
        </form>
      </dialog>
    </>
  );
}
