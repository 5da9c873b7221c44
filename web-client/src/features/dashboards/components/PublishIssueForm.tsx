import { Button } from "@/components/Button";
import { FieldError, invalidProps } from "@/components/InputField";
import { useClearToasts, useToast } from "@/components/toast";
import { ApiFailure, failureMessage } from "@/lib/api-client";
import { messageFor, type Problem } from "@/lib/problems";
import { useSession } from "@/lib/session";
import { settle, useForm } from "@/lib/use-form";
import {
  publishMagazine,
  uploadPicture,
} from "@/features/dashboards/api/admin";
import { useStaffChanges } from "@/features/dashboards/api/changes";
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

/** What the form sends: the publication, or (a file) the cover to upload. */
type Intent = "publish" | File;

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
  const changes = useStaffChanges();
  const { expire } = useSession();
  const republish = magazine.published_at != null;
  const id = `publish-${magazine.id}`;
  // A refusal is said under its field, which takes the focus once the form is
  // enabled again (or under the form, when it is about no field).
  const form = useForm({
    initial: () => ({
      title: magazine.title,
      date: magazine.issue_date ?? today(),
      description: magazine.description ?? "",
      cover: magazine.cover_url ?? "",
    }),
    send: async (fields, intent: Intent) => {
      // A new attempt makes the last error stale.
      clearToasts();
      if (intent !== "publish") return settle(uploadPicture(intent));
      return settle(
        publishMagazine(magazine.id, {
          title: fields.title,
          issue_date: fields.date,
          description: fields.description,
          cover_url: fields.cover,
        }),
      );
    },
    refused: ({ cause }, _fields, intent): Problem => {
      if (cause instanceof ApiFailure && cause.signedOut) expire();
      const code = cause instanceof ApiFailure ? cause.code : "";
      const field = FIELD_OF[code] ?? (intent === "publish" ? null : "cover");
      return {
        title: "",
        message:
          failureMessage(cause) || "Something went wrong. Please try again.",
        fields: field ? [field] : [],
      };
    },
    onDone: (answer) => {
      if (typeof answer === "string") return form.set("cover", answer);
      notify({
        title: republish ? "Issue updated." : "Issue published.",
        description: "Readers see it on the Magazine page.",
      });
      onDone(true);
    },
    invalidates: (answer) =>
      typeof answer === "string" ? Promise.resolve() : changes.magazines(),
    idOf: (field) => `${id}-${field}`,
    toast: false,
  });
  const { fields, problem, busy, sending } = form;
  const errorAt = (field: Field) => messageFor(problem, field);

  function onCover(file: File | undefined) {
    if (file) form.submit(null, file);
  }

  return (
    <section
      className="dashboard-block publish-block"
      aria-labelledby={`${id}-heading`}
    >
      <h3 id={`${id}-heading`} className="dashboard-subtitle">
        {republish ? "Edit" : "Publish"} “{magazine.title}”
      </h3>
      <form
        className="form publish-form"
        onSubmit={(event) => form.submit(event, "publish")}
      >
        <div className="field">
          <label htmlFor={`${id}-title`}>Title</label>
          <input
            id={`${id}-title`}
            maxLength={200}
            required
            {...form.bind("title")}
            {...invalidProps(`${id}-title`, errorAt("title"))}
          />
          <FieldError id={`${id}-title`} error={errorAt("title")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-date`}>Issue date</label>
          <input
            id={`${id}-date`}
            type="date"
            required
            {...form.bind("date")}
            {...invalidProps(`${id}-date`, errorAt("date"))}
          />
          <FieldError id={`${id}-date`} error={errorAt("date")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-description`}>Short description</label>
          <textarea
            id={`${id}-description`}
            maxLength={500}
            rows={3}
            required
            {...form.bind("description")}
            {...invalidProps(`${id}-description`, errorAt("description"))}
          />
          <FieldError id={`${id}-description`} error={errorAt("description")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-cover`}>Cover image</label>
          <input
            id={`${id}-cover`}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            disabled={busy}
            {...invalidProps(`${id}-cover`, errorAt("cover"))}
            onChange={(event) => onCover(event.target.files?.[0])}
          />
          <FieldError id={`${id}-cover`} error={errorAt("cover")} />
          {sending instanceof File && (
            <p className="field-hint">Uploading cover…</p>
          )}
          {fields.cover !== "" && (
            <img
              className="publish-cover"
              src={fields.cover}
              alt="The issue's cover"
              width={120}
              height={160}
            />
          )}
        </div>
        {problem !== null && problem.fields.length === 0 && (
          <p className="field-error" role="alert">
            {problem.message}
          </p>
        )}
        <div className="row-actions">
          <Button type="submit" disabled={busy}>
            {sending === "publish"
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
