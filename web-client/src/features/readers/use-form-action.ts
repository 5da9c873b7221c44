import { useState, type FormEvent } from "react";
import type { Outcome } from "@/features/readers/api/readers";
import type { NoticeText } from "@/features/readers/components/Notice";
import { doneMessage, type FormAnswer } from "@/lib/form-answer";

type NoticeState = [NoticeText | null, (notice: NoticeText | null) => void];

/**
 * A form's send step: one request at a time, `busy` meanwhile, then the
 * notice under the form — what `onDone` makes of the answer, or the server's
 * message when it refused. Several buttons of one form may share one notice
 * (`shared`, from `useState`).
 */
export function useFormAction<T>(
  run: () => Promise<Outcome<T>>,
  onDone: (data: T) => NoticeText | null,
  shared?: NoticeState,
  initial: NoticeText | null = null,
) {
  const [busy, setBusy] = useState(false);
  const own = useState<NoticeText | null>(initial);
  const [notice, setNotice] = shared ?? own;

  async function submit() {
    if (busy) return;
    setBusy(true);
    const outcome = await run();
    setBusy(false);
    setNotice(
      outcome.ok
        ? onDone(outcome.data)
        : { kind: "error", text: outcome.message },
    );
  }

  return {
    busy,
    notice,
    setNotice,
    submit: () => void submit(),
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      void submit();
    },
  };
}

/** What the server said to a form posted without JavaScript, as a notice. */
export function answerNotice(
  answer: FormAnswer | undefined,
): NoticeText | null {
  if (answer?.error) return { kind: "error", text: answer.error.message };
  const done = doneMessage(answer);
  return done ? { kind: "info", text: done } : null;
}

/** The server's own words of a "we've emailed you" answer. */
export const sent = (data: { message: string }): NoticeText => ({
  kind: "info",
  text: data.message,
});
