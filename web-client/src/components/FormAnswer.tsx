import type { Problem } from "@/lib/problems";
import { ANSWER_ID } from "@/lib/form-answer";

/**
 * What went wrong, at the top of a form: the product's words and, when more
 * than one field is at fault, which ones (linked to them). The server sends a
 * browser without JavaScript back to it (`#answer`).
 */
export function ProblemSummary({
  problem,
  labels,
  idOf,
}: {
  problem: Problem | null;
  /** People's name of each field. */
  labels: Record<string, string>;
  idOf: (field: string) => string;
}) {
  if (!problem) return null;
  const named = problem.fields.filter((f) => labels[f] !== undefined);
  return (
    <div id={ANSWER_ID} className="form-problem" role="alert" tabIndex={-1}>
      <p className="form-problem-title">{problem.title}</p>
      <p>{problem.message}</p>
      {named.length > 1 ? (
        <ul>
          {named.map((field) => (
            <li key={field}>
              <a href={`#${idOf(field)}`}>{labels[field]}</a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A success said in place of a toast, for a form posted without JavaScript. */
export function DoneMessage({ title, text }: { title: string; text: string }) {
  return (
    <div id={ANSWER_ID} className="form-done" role="status" tabIndex={-1}>
      <p className="form-problem-title">{title}</p>
      {text ? <p>{text}</p> : null}
    </div>
  );
}
