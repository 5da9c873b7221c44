import { useLayoutEffect, useRef, useState } from "react";
import { usePreview, type Preview } from "@/features/editor/api/use-preview";
import { applyMarkdown, type MarkdownAction } from "@/features/editor/markdown";
import { MarkdownToolbar } from "./MarkdownToolbar";

export type ContentMode = "write" | "preview";

interface Props {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  mode: ContentMode;
  onModeChange: (mode: ContentMode) => void;
}

/** The markdown body: helper buttons, the textarea and the server-rendered preview. */
export function ContentField({
  id,
  value,
  onChange,
  error,
  mode,
  onModeChange,
}: Props) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const selection = useRef<{ start: number; end: number } | null>(null);
  // The text as it was when Preview was chosen: typing never starts a request.
  const [previewed, setPreviewed] = useState<string | null>(null);
  const preview = usePreview(mode === "preview" ? previewed : null);

  // Restore the selection a helper button chose once React has the new text.
  useLayoutEffect(() => {
    const el = textarea.current;
    const wanted = selection.current;
    if (!el || !wanted) return;
    selection.current = null;
    el.focus();
    el.setSelectionRange(wanted.start, wanted.end);
  }, [value]);

  function apply(action: MarkdownAction) {
    const el = textarea.current;
    if (!el) return;
    const next = applyMarkdown(action, {
      text: value,
      start: el.selectionStart,
      end: el.selectionEnd,
    });
    selection.current = { start: next.start, end: next.end };
    onChange(next.text);
  }

  function showPreview() {
    onModeChange("preview");
    setPreviewed(value);
  }

  const errorId = `${id}-error`;
  return (
    <div className="field editor-content">
      <div className="editor-content-head">
        <label htmlFor={id}>Content</label>
        <div className="editor-modes" role="group" aria-label="Content view">
          <button
            type="button"
            className="editor-mode"
            aria-pressed={mode === "write"}
            onClick={() => onModeChange("write")}
          >
            Write
          </button>
          <button
            type="button"
            className="editor-mode"
            aria-pressed={mode === "preview"}
            onClick={showPreview}
          >
            Preview
          </button>
        </div>
      </div>
      {mode === "write" ? (
        <MarkdownToolbar controls={id} onApply={apply} />
      ) : null}
      <textarea
        ref={textarea}
        id={id}
        rows={10}
        hidden={mode !== "write"}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : `${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className="field-hint" hidden={mode !== "write"}>
        Markdown: **bold**, *italic*, # headings, - lists, &gt; quotes,
        [links](https://…).
      </p>
      {mode === "preview" ? <PreviewPane preview={preview} /> : null}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function PreviewPane({ preview }: { preview: Preview }) {
  return (
    <section className="editor-preview" aria-label="Preview">
      {preview.kind === "ready" ? (
        // Rendered and sanitised by the server, as on the article page.
        <div
          className="prose"
          dangerouslySetInnerHTML={{ __html: preview.html }}
        />
      ) : (
        <p className="status-text" role="status">
          {preview.kind === "loading"
            ? "Loading preview..."
            : preview.kind === "failed"
              ? `Preview failed: ${preview.message}`
              : "Nothing to preview yet."}
        </p>
      )}
    </section>
  );
}
