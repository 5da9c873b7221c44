import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/Button";
import { FieldError, invalidProps } from "@/components/InputField";
import { useClearToasts, useToast } from "@/components/toast";
import { ApiFailure, failureMessage } from "@/lib/api-client";
import { useSession } from "@/lib/session";
import {
  publishMagazine,
  uploadIssueCover,
} from "@/features/dashboards/api/admin";
import { magazinesChanged } from "@/features/dashboards/api/changes";
import type { Magazine } from "@/features/dashboards/types";

/** Today as YYYY-MM-DD in the admin's own calendar. */
function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Publishing an uploaded issue for readers: title, issue date, a short
 * description and a cover image (uploaded here). The server checks each
 * field; its message is shown under the form.
 */
type Field = "title" | "date" | "description" | "cover";

/** A refusal, and the field it is about (`null`: the whole form). */
interface Problem {
  field: Field | null;
  message: string;
}

/** The field each of the server's refusals is about. */
const FIELD_OF: Partial<Record<string, Field>> = {
  title_required: "title",
  title_too_long: "title",
  invalid_date: "date",
  description_required: "description",
  too_long: "description",
  invalid_cover_image: "cover",
  not_an_image: "cover",
  image_too_large: "cover",
  image_too_many_pixels: "cover",
};

export function PublishIssueForm({
  magazine,
  onDone,
}: {
  magazine: Magazine;
  /** Closes the form; `true` once the issue was published (or changed). */
  onDone: (published: boolean) => void;
}) {
  const notify = useToast();
  const clearToasts = useClearToasts();
  const queryClient = useQueryClient();
  const { expire } = useSession();
  const [title, setTitle] = useState(magazine.title);
  const [date, setDate] = useState(magazine.issue_date ?? today());
  const [description, setDescription] = useState(magazine.description ?? "");
  const [cover, setCover] = useState(magazine.cover_url ?? "");
  const [busy, setBusy] = useState<"cover" | "publish" | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const republish = magazine.published_at != null;
  const id = `publish-${magazine.id}`;
  const errorAt = (field: Field) =>
    error?.field === field ? error.message : undefined;

  // A refusal is said under its field, which takes the focus once the form is
  // enabled again.
  useEffect(() => {
    if (busy === null && error?.field) {
      document.getElementById(`${id}-${error.field}`)?.focus();
    }
  }, [busy, error, id]);

  async function attempt(what: "cover" | "publish", run: () => Promise<void>) {
    setBusy(what);
    setError(null);
    clearToasts();
    try {
      await run();
    } catch (cause) {
      const code = cause instanceof ApiFailure ? cause.code : "";
      const field = FIELD_OF[code] ?? (what === "cover" ? "cover" : null);
      setError({
        field,
        message:
          failureMessage(cause) || "Something went wrong. Please try again.",
      });
      if (cause instanceof ApiFailure && cause.signedOut) expire();
    } finally {
      setBusy(null);
    }
  }

  function onCover(file: File | undefined) {
    if (!file) return;
    void attempt("cover", async () => setCover(await uploadIssueCover(file)));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void attempt("publish", async () => {
      await publishMagazine(magazine.id, {
        title,
        issue_date: date,
        description,
        cover_url: cover,
      });
      await magazinesChanged(queryClient);
      notify({
        title: republish ? "Issue updated." : "Issue published.",
        description: "Readers see it on the Magazine page.",
      });
      onDone(true);
    });
  }

  return (
    <section
      className="dashboard-block publish-block"
      aria-labelledby={`${id}-heading`}
    >
      <h3 id={`${id}-heading`} className="dashboard-subtitle">
        {republish ? "Edit" : "Publish"} “{magazine.title}”
      </h3>
      <form className="form publish-form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={`${id}-title`}>Title</label>
          <input
            id={`${id}-title`}
            value={title}
            maxLength={200}
            required
            {...invalidProps(`${id}-title`, errorAt("title"))}
            onChange={(event) => setTitle(event.target.value)}
          />
          <FieldError id={`${id}-title`} error={errorAt("title")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-date`}>Issue date</label>
          <input
            id={`${id}-date`}
            type="date"
            value={date}
            required
            {...invalidProps(`${id}-date`, errorAt("date"))}
            onChange={(event) => setDate(event.target.value)}
          />
          <FieldError id={`${id}-date`} error={errorAt("date")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-description`}>Short description</label>
          <textarea
            id={`${id}-description`}
            value={description}
            maxLength={500}
            rows={3}
            required
            {...invalidProps(`${id}-description`, errorAt("description"))}
            onChange={(event) => setDescription(event.target.value)}
          />
          <FieldError id={`${id}-description`} error={errorAt("description")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-cover`}>Cover image</label>
          <input
            id={`${id}-cover`}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            disabled={busy !== null}
            {...invalidProps(`${id}-cover`, errorAt("cover"))}
            onChange={(event) => onCover(event.target.files?.[0])}
          />
          <FieldError id={`${id}-cover`} error={errorAt("cover")} />
          {busy === "cover" && <p className="field-hint">Uploading cover…</p>}
          {cover !== "" && (
            <img
              className="publish-cover"
              src={cover}
              alt="The issue's cover"
              width={120}
              height={160}
            />
          )}
        </div>
        {error !== null && error.field === null && (
          <p className="field-error" role="alert">
            {error.message}
          </p>
        )}
        <div className="row-actions">
          <Button type="submit" disabled={busy !== null}>
            {busy === "publish"
              ? "Publishing..."
              : republish
                ? "Save changes"
                : "Publish issue"}
          </Button>
          <Button variant="quiet" onClick={() => onDone(false)}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}
