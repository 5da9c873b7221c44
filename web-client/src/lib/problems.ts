/**
 * A form's problem as people see it: the product's title and message, and the
 * fields at fault, so each can be marked (`aria-invalid`, its own message) and
 * the first one focused.
 */
export interface Problem {
  title: string;
  message: string;
  /** Field names at fault, first the one to fix first. */
  fields: string[];
  /** A field's own message, where it is not `message` (which the toast says). */
  messages?: Partial<Record<string, string>>;
}

export const MISSING_FIELD = "Please fill in this field.";

/** The message shown beside `field`, or undefined when it is fine. */
export function messageFor(
  problem: Problem | null,
  field: string,
): string | undefined {
  if (!problem || !problem.fields.includes(field)) return undefined;
  const own = problem.messages?.[field];
  if (own !== undefined) return own;
  return problem.fields.length > 1 &&
    problem.message === "Please fill in all required fields."
    ? MISSING_FIELD
    : problem.message;
}

/** The names of the `required` fields left empty, in order. */
export function emptyFields(
  values: Record<string, string | readonly string[]>,
  required: readonly string[],
): string[] {
  return required.filter((name) => {
    const value = values[name];
    return Array.isArray(value)
      ? value.length === 0
      : typeof value !== "string" || value.trim() === "";
  });
}

/** Moves focus to the first field at fault (by its element id), after render. */
export function focusFirst(
  problem: Problem | null,
  idOf: (field: string) => string,
) {
  const first = problem?.fields[0];
  if (first === undefined || typeof document === "undefined") return;
  window.setTimeout(() => document.getElementById(idOf(first))?.focus(), 0);
}

/** What a server refusal (`{ code, title?, message }`) means for the form's fields. */
export function serverProblem(
  error: { code?: string; title?: string; message: string },
  options: {
    /** The title when the server gives none. */
    title: string;
    values: Record<string, string | readonly string[]>;
    required: readonly string[];
    /** The required answers, when "missing_answers" is about other fields. */
    answers?: readonly string[];
    /** The field each code is about. */
    fieldOf: Partial<Record<string, string>>;
  },
): Problem {
  const fields =
    error.code === "missing_information"
      ? emptyFields(options.values, options.required)
      : error.code === "missing_answers"
        ? emptyFields(options.values, options.answers ?? options.required)
        : [options.fieldOf[error.code ?? ""]].filter(
            (f): f is string => f !== undefined,
          );
  return {
    title: error.title || options.title,
    message: error.message,
    fields,
  };
}
