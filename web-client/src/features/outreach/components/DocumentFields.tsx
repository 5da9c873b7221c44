import { useEffect, useRef, type ChangeEvent } from "react";
import { useToast } from "@/components/toast";
import {
  DOCUMENT_ACCEPT,
  DOCUMENT_HINT,
  checkDocument,
  type DocumentKind,
} from "@/features/outreach/application";

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

interface FileFieldProps {
  id: string;
  /** The part the file is posted as (e.g. "cv_file"). */
  name: string;
  kind: DocumentKind;
  label: string;
  file: File | null;
  onChange: (file: File | null) => void;
  disabled?: boolean;
  /** Extra text for the hint, e.g. why the input is disabled. */
  note?: string;
  /** The file attached before the form came back with an error (not kept). */
  kept?: string | undefined;
  /** Whether the sender chose to go on without the kept file. */
  skipped?: boolean;
  onSkip?: (skip: boolean) => void;
}

/**
 * A document input. Once a file is chosen it shows the file's name with a
 * Remove button instead; a file the server would refuse is turned down here.
 */
export function FileField({
  id,
  name,
  kind,
  label,
  file,
  onChange,
  disabled = false,
  note,
  kept,
  skipped = false,
  onSkip,
}: FileFieldProps) {
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const remove = useRef<HTMLButtonElement>(null);
  // The control under focus is replaced on choose and on remove; focus its successor.
  const moveFocus = useRef(false);

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (file ? remove.current : input.current)?.focus();
  }, [file]);

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    const problem = checkDocument(kind, chosen);
    if (problem) {
      event.target.value = "";
      toast({
        title: problem.title,
        description: problem.message,
        variant: "destructive",
      });
      return;
    }
    moveFocus.current = true;
    onChange(chosen);
  }

  const hintId = `${id}-hint`;
  const keptId = `${id}-kept`;
  const hint = note ? `${DOCUMENT_HINT}. ${note}` : DOCUMENT_HINT;
  const askAgain = kept !== undefined && file === null;
  return (
    <div className="field">
      {file ? (
        <>
          <span className="field-label" id={`${id}-label`}>
            {label}
          </span>
          <div
            className="file-chosen"
            role="group"
            aria-labelledby={`${id}-label`}
          >
            <span className="file-name">{file.name}</span>
            <span className="muted">{size(file.size)}</span>
            <button
              ref={remove}
              type="button"
              className="btn btn-quiet btn-sm"
              onClick={() => {
                moveFocus.current = true;
                onChange(null);
              }}
            >
              Remove<span className="sr-only"> {file.name}</span>
            </button>
          </div>
        </>
      ) : (
        <>
          <label htmlFor={id}>{label}</label>
          <input
            ref={input}
            id={id}
            name={name}
            type="file"
            accept={DOCUMENT_ACCEPT}
            disabled={disabled}
            aria-describedby={askAgain ? `${keptId} ${hintId}` : hintId}
            aria-invalid={askAgain && !skipped ? true : undefined}
            onChange={choose}
          />
        </>
      )}
      {askAgain ? (
        <>
          <p id={keptId} className={skipped ? "field-hint" : "field-error"}>
            {skipped
              ? `Your application will be sent without ${kept}.`
              : `${kept} was attached, but files are not kept when the form comes back: choose it again.`}
          </p>
          {/* Posted back, so the server asks again rather than send the form without it. */}
          <input type="hidden" name="reattach" value={name} />
          <input type="hidden" name={`attached_${name}`} value={kept} />
          <label className="check-field">
            <input
              type="checkbox"
              name="reattach_skip"
              value={name}
              checked={skipped}
              onChange={(event) => onSkip?.(event.target.checked)}
            />
            Send without it
          </label>
        </>
      ) : null}
      <p id={hintId} className="field-hint">
        {hint}
      </p>
    </div>
  );
}

interface SampleFieldProps {
  id: string;
  /** The parts the link and the file are posted as. */
  linkName: string;
  fileName: string;
  /** What is wrong with this sample. */
  error?: string;
  kind: Exclude<DocumentKind, "cv">;
  /** "Portfolio", "Writing Samples", ... */
  title: string;
  optional?: boolean;
  intro: string;
  url: string;
  file: File | null;
  onUrl: (url: string) => void;
  onFile: (file: File | null) => void;
  kept?: string | undefined;
  skipped?: boolean;
  onSkip?: (skip: boolean) => void;
}

/** A link or a file, never both: each one clears and disables the other (spec §2). */
export function SampleField({
  id,
  linkName,
  fileName,
  error,
  kind,
  title,
  optional = false,
  intro,
  url,
  file,
  onUrl,
  onFile,
  kept,
  skipped,
  onSkip,
}: SampleFieldProps) {
  return (
    <fieldset className="form-subsection" aria-describedby={`${id}-intro`}>
      <legend>
        {title}
        {optional ? <span className="optional"> (optional)</span> : null}
      </legend>
      <p id={`${id}-intro`} className="field-hint">
        {intro} Share a link or upload a file, not both.
      </p>
      <div className="field">
        <label htmlFor={`${id}-link`}>{title} link</label>
        <input
          id={`${id}-link`}
          name={linkName}
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://"
          value={url}
          disabled={file !== null}
          aria-invalid={error ? true : undefined}
          aria-describedby={
            [error ? `${id}-link-error` : "", file ? `${id}-link-note` : ""]
              .filter(Boolean)
              .join(" ") || undefined
          }
          onChange={(event) => {
            onUrl(event.target.value);
            if (file) onFile(null);
          }}
        />
        {error ? (
          <p id={`${id}-link-error`} className="field-error">
            {error}
          </p>
        ) : null}
        {file ? (
          <p id={`${id}-link-note`} className="field-hint">
            Remove the file to give a link instead.
          </p>
        ) : null}
      </div>
      <p className="or-divider" aria-hidden="true">
        or
      </p>
      <FileField
        id={`${id}-file`}
        name={fileName}
        kind={kind}
        label={`${title} file`}
        file={file}
        disabled={url !== ""}
        note={url !== "" ? "Clear the link to upload a file instead." : ""}
        kept={kept}
        skipped={skipped ?? false}
        onSkip={onSkip}
        onChange={(chosen) => {
          onFile(chosen);
          if (chosen) onUrl("");
        }}
      />
    </fieldset>
  );
}
