import { useMutation } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Button } from "@/components/Button";
import { failureMessage } from "@/lib/api-client";
import { formatWhen } from "@/lib/newsroom";
import {
  listRevisions,
  restoreRevision,
  revisionDiff,
} from "@/features/editor/api/editor-api";
import type {
  RevisionDiff,
  RevisionSummary,
  StaffArticle,
} from "@/features/editor/types";

const OP_SIGNS = { same: " ", removed: "−", added: "+" } as const;
const OP_WORDS = { same: "", removed: "Removed: ", added: "Added: " } as const;

/**
 * An article's saved revisions: each can be compared with the text saved now
 * (line by line) and restored, which saves it as the newest revision.
 */
export function HistoryPanel({
  articleId,
  version,
  onRestored,
}: {
  articleId: string;
  /** The version the editor shows (a restore over a newer one is refused). */
  version: number | null;
  onRestored: (article: StaffArticle, number: number) => void;
}) {
  const [revisions, setRevisions] = useState<RevisionSummary[] | null>(null);
  const [diff, setDiff] = useState<RevisionDiff | null>(null);
  const [problem, setProblem] = useState("");
  const [comparing, setComparing] = useState(false);
  const restoring = useMutation({
    mutationFn: (number: number) => restoreRevision(articleId, number, version),
    onSuccess: (restored, number) => {
      setDiff(null);
      setProblem("");
      onRestored(restored, number);
    },
    onError: (cause) => setProblem(failureMessage(cause) || "Unknown error"),
  });
  const busy = comparing || restoring.isPending;
  const headingId = useId();

  useEffect(() => {
    let live = true;
    listRevisions(articleId).then(
      (list) => live && setRevisions(list),
      (cause: unknown) =>
        live && setProblem(failureMessage(cause) || "Unknown error"),
    );
    return () => {
      live = false;
    };
  }, [articleId, version]);

  async function compare(number: number) {
    setComparing(true);
    try {
      setDiff(await revisionDiff(articleId, number));
      setProblem("");
    } catch (cause) {
      setProblem(failureMessage(cause) || "Unknown error");
    } finally {
      setComparing(false);
    }
  }

  return (
    <section className="history-panel" aria-labelledby={headingId}>
      <h3 id={headingId}>History</h3>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {revisions === null ? (
        <p className="status-text" role="status">
          Loading revisions...
        </p>
      ) : (
        <ol className="revision-list">
          {revisions.map((r) => (
            <li key={r.number}>
              <span>
                Revision {r.number} · {formatWhen(r.saved_at)}
                {r.saved_by_name ? ` · ${r.saved_by_name}` : ""}
              </span>
              <span className="row-actions">
                <Button
                  size="sm"
                  variant="quiet"
                  disabled={busy}
                  aria-label={`Compare revision ${r.number} with the current text`}
                  onClick={() => void compare(r.number)}
                >
                  Compare
                </Button>
                <Button
                  size="sm"
                  variant="quiet"
                  disabled={busy}
                  aria-label={`Restore revision ${r.number}`}
                  onClick={() => restoring.mutate(r.number)}
                >
                  Restore
                </Button>
              </span>
            </li>
          ))}
        </ol>
      )}
      {diff ? (
        <div className="revision-diff">
          <h4>Revision {diff.number} → now</h4>
          {diff.fields.map((f) => (
            <p key={f.field}>
              <strong>{f.field.replace("_", " ")}:</strong>{" "}
              <del>{f.revision ?? "(none)"}</del> →{" "}
              <ins>{f.current ?? "(none)"}</ins>
            </p>
          ))}
          {diff.content.every((l) => l.op === "same") ? (
            <p className="muted">The text is the same.</p>
          ) : null}
          <pre className="diff-lines">
            {diff.content.map((line, i) => (
              <span key={i} className={`diff-${line.op}`}>
                <span className="sr-only">{OP_WORDS[line.op]}</span>
                <span aria-hidden="true">{OP_SIGNS[line.op]} </span>
                {line.text}
                {"\n"}
              </span>
            ))}
          </pre>
        </div>
      ) : null}
    </section>
  );
}
