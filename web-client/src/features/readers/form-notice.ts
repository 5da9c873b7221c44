// The readers' forms say how a send went in a notice under the form (never in
// a toast): the server's words of a refusal, or what the success means.
import { doneMessage, type FormAnswer } from "@/lib/form-answer";
import type { Problem } from "@/lib/problems";
import type { NoticeText } from "./components/Notice";

/**
 * A refusal (or the failure to reach the server), as the form's problem.
 * Generic, so that it is a form's `refused` as it is (a plain parameter type
 * would be taken as the answer's type).
 */
export function refusal<T extends { message: string }>({
  message,
}: T): Problem {
  return { title: "", message, fields: [] };
}

/** What the server refused to a form posted without JavaScript. */
export function answerProblem(answer: FormAnswer | undefined): Problem | null {
  return answer?.error ? refusal(answer.error) : null;
}

/** The notice under a form: its problem, or else what its success said. */
export function formNotice(
  problem: Problem | null,
  done: string | null,
): NoticeText | null {
  if (problem) return { kind: "error", text: problem.message };
  return done ? { kind: "info", text: done } : null;
}

/** What the server said to a form posted without JavaScript, as a notice. */
export function answerNotice(
  answer: FormAnswer | undefined,
): NoticeText | null {
  return formNotice(answerProblem(answer), doneMessage(answer));
}
