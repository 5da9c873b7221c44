import { useRef, useState, type FormEvent, type MouseEvent } from "react";
import type { components } from "@/api/schema";
import { ButtonLink } from "@/components/Button";
import { useToast } from "@/components/toast";
import { signUpForLaunch } from "@/features/outreach/api/outreach";
import { validateNotify } from "@/features/outreach/validation";
import { Honeypot } from "./Honeypot";
import { DoneMessage } from "@/components/FormAnswer";
import { ANSWER_ID, answered, useFormAnswer } from "@/lib/form-answer";

const THANKS = "Thanks! You'll be the first to know when it's live.";

const GENERIC_ERROR = "Something went wrong. Please try again.";

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
  const [email, setEmail] = useState(() => answered(mine, "email"));
  const [website, setWebsite] = useState("");
  const [busy, setBusy] = useState(false);
  // Repeats a refusal inside the dialog: the modal makes the toasts behind it inert.
  const [problem, setProblem] = useState(mine?.error?.message ?? "");
  const toast = useToast();

  function open(event: MouseEvent<HTMLAnchorElement>) {
    const box = dialog.current;
    if (!box || typeof box.showModal !== "function") return;
    event.preventDefault();
    if (!box.open) box.showModal();
    // The dialog's question, not its close button, is where people start.
    emailInput.current?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const invalid = validateNotify(email);
    if (invalid) {
      setProblem(invalid.message);
      toast({
        title: invalid.title,
        description: invalid.message,
        variant: "destructive",
      });
      return;
    }
    setProblem("");
    setBusy(true);
    const result = await signUpForLaunch(email.trim(), list, website);
    setBusy(false);
    if (result.ok) {
      toast({
        title: "Success!",
        description: THANKS,
      });
      setEmail("");
      dialog.current?.close();
    } else if (result.refused) {
      setProblem(result.refused.message);
      toast({
        title: result.refused.title || "Error",
        description: result.refused.message,
        variant: "destructive",
      });
    } else {
      setProblem(GENERIC_ERROR);
      toast({
        title: "Error",
        description: GENERIC_ERROR,
        variant: "destructive",
      });
    }
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
        onClose={() => setProblem("")}
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
        <form
          className="form"
          method="post"
          noValidate
          onSubmit={(event) => void submit(event)}
        >
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
              value={email}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-error` : undefined}
              onChange={(event) => setEmail(event.target.value)}
            />
            {problem ? (
              <p id={`${id}-error`} className="field-error" role="alert">
                {problem}
              </p>
            ) : null}
          </div>
          <Honeypot
            id={`${id}-website`}
            value={website}
            onChange={setWebsite}
          />
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={busy}
          >
            {busy ? "Signing up..." : "Notify Me"}
          </button>
        </form>
      </dialog>
    </>
  );
}
