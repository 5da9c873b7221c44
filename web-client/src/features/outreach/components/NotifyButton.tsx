import {
  useId,
  useRef,
  useState,
  type FormEvent,
  type MouseEvent,
} from "react";
import type { components } from "@/api/schema";
import { ButtonLink } from "@/components/Button";
import { useToast } from "@/components/toast";
import { signUpForLaunch } from "@/features/outreach/api/outreach";
import { validateNotify } from "@/features/outreach/validation";
import { Honeypot } from "./Honeypot";

const GENERIC_ERROR = "Something went wrong. Please try again.";

/**
 * "Notify Me When It's Ready". The server renders a plain link to the contact
 * page, so the button still leads somewhere without JavaScript; once hydrated,
 * its click opens the sign-up dialog instead. The markup is the same on both
 * sides, so hydration never mismatches.
 */
export function NotifyButton({
  list,
  label = "Notify Me When It's Ready",
}: {
  list: components["schemas"]["NotifyList"];
  /** The button's words (the launch pages keep the product's). */
  label?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [email, setEmail] = useState("");
  const [website, setWebsite] = useState("");
  const [busy, setBusy] = useState(false);
  // Repeats a refusal inside the dialog: the modal makes the toasts behind it inert.
  const [problem, setProblem] = useState("");
  const toast = useToast();

  function open(event: MouseEvent<HTMLAnchorElement>) {
    const box = dialog.current;
    if (!box || typeof box.showModal !== "function") return;
    event.preventDefault();
    if (!box.open) box.showModal();
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
        description: "Thanks! You'll be the first to know when it's live.",
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
      <ButtonLink href="/contact-us" size="lg" native onClick={open}>
        {label}
      </ButtonLink>
      <dialog
        ref={dialog}
        className="notify-dialog"
        onClose={() => setProblem("")}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
      >
        <div className="notify-dialog-head">
          <h2 id={`${id}-title`} className="notify-dialog-title">
            Get Notified
          </h2>
          <button
            type="button"
            className="notify-dialog-close"
            aria-label="Close"
            onClick={() => dialog.current?.close()}
          >
            ×
          </button>
        </div>
        <p id={`${id}-text`}>
          Leave your email and we will tell you as soon as it launches.
        </p>
        <form
          className="form"
          noValidate
          onSubmit={(event) => void submit(event)}
        >
          <div className="field">
            <label htmlFor={`${id}-email`}>Email address</label>
            <input
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
