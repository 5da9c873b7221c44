/**
 * Forms posted without JavaScript. Every public form is also a plain HTML
 * form posting to its own page; the server answers with a redirect back, and
 * the page data then carries what it said (`form`). Pages read it here to show
 * the messages beside the fields and the values as typed (never a password).
 */
import { skipToken } from "@tanstack/react-query";
import { useLocation } from "wouter";
import type { components } from "@/api/schema";
import { useQuery } from "@/lib/use-query";

export type ApiError = components["schemas"]["ApiError"];

/** What the server answered a form posted to the page. */
export interface FormAnswer {
  /** Which form of the page answered ("" for the page's one form). */
  intent: string;
  /** The values as sent, to fill in again (no password, key or token). */
  values: Record<string, string | string[]>;
  /** What went wrong, in the product's words. */
  error?: ApiError;
  /** What the operation answered on success, e.g. `{ message }`. */
  done?: unknown;
}

export const formAnswerKey = (path: string) =>
  ["form-answer", path.toLowerCase()] as const;

/**
 * The answer to the form `intent` of the current page, if one was posted
 * (`null`: whichever form of the page it was).
 */
export function useFormAnswer(
  intent: string | null = "",
): FormAnswer | undefined {
  const [path] = useLocation();
  const { data } = useQuery<FormAnswer>({
    queryKey: formAnswerKey(path),
    queryFn: skipToken,
    staleTime: Infinity,
  });
  return data && (intent === null || data.intent === intent) ? data : undefined;
}

/** A text value of the answer ("" when absent). */
export function answered(answer: FormAnswer | undefined, name: string): string {
  const value = answer?.values[name];
  if (Array.isArray(value)) return value[value.length - 1] ?? "";
  return value ?? "";
}

/** Every value of a repeated field (checkboxes). */
export function answeredList(
  answer: FormAnswer | undefined,
  name: string,
): string[] {
  const value = answer?.values[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The `message` of a success answer ("" when there is none). */
export function doneMessage(answer: FormAnswer | undefined): string {
  const done = answer?.done;
  if (typeof done === "object" && done !== null && "message" in done) {
    const message: unknown = (done as { message: unknown }).message;
    if (typeof message === "string") return message;
  }
  return "";
}

/** Where a post is answered: the fragment the server sends the browser back to. */
export const ANSWER_ID = "answer";
