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
  const hint = note ? `${DOCUMENT_HINT}. ${note}` : DOCUMENT_HINT;
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
            aria-describedby={hintId}
            onChange={choose}
          />
        </>
      )}
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
        onChange={(chosen) => {
          onFile(chosen);
          if (chosen) onUrl("");
        }}
      />
    </fieldset>
  );
}
