import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { flushSync } from "react-dom";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { ApiFailure, failureMessage } from "@/lib/api-client";
import { CATEGORIES } from "@/lib/categories";
import { useSession } from "@/lib/session";
import { saveArticle } from "@/features/editor/api/editor-api";
import {
  fieldOfCode,
  formFromArticle,
  toInput,
  validateForm,
  type ArticleForm,
  type FieldErrors,
} from "@/features/editor/article-form";
import type { ArticleEditorProps, Status } from "@/features/editor/types";
import { ContentField, type ContentMode } from "./ContentField";
import { CoverImageField } from "./CoverImageField";

const IDS = {
  writer: "editor-writer",
  title: "editor-title",
  content: "editor-content",
} as const;

/**
 * The article form of the writer and content-director dashboards. It saves
 * itself and reports back; the dashboard closes it, which resets it.
 */
export function ArticleEditor({
  article,
  writers,
  onSaved,
  onCancel,
}: ArticleEditorProps) {
  const notify = useToast();
  const { expire } = useSession();
  const [form, setForm] = useState<ArticleForm>(() => formFromArticle(article));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [mode, setMode] = useState<ContentMode>("write");
  const [saving, setSaving] = useState<Status | null>(null);
  const chooseWriter = writers !== undefined;

  // Opening the form (New Article, Edit) moves focus into it.
  useEffect(() => {
    document.getElementById(chooseWriter ? IDS.writer : IDS.title)?.focus();
  }, [chooseWriter]);

  function update<K extends keyof ArticleForm>(key: K, value: ArticleForm[K]) {
    setForm((f) => ({ ...f, [key]: value }));
    if (key === "title" || key === "content") {
      setErrors((e) => ({ ...e, [key]: undefined }));
    } else if (key === "authorId") {
      setErrors((e) => ({ ...e, writer: undefined }));
    }
  }

  /** Shows field errors and moves focus to the first one. */
  function showErrors(found: FieldErrors) {
    flushSync(() => {
      setErrors(found);
      if (found.content) setMode("write");
    });
    const first = (["writer", "title", "content"] as const).find(
      (k) => found[k],
    );
    if (first) document.getElementById(IDS[first])?.focus();
  }

  async function save(status: Status) {
    if (saving) return;
    const found = validateForm(form, chooseWriter);
    const messages = Object.values(found).filter(Boolean);
    if (messages.length > 0) {
      showErrors(found);
      notify({
        title: "Error",
        description: messages[0],
        variant: "destructive",
      });
      return;
    }
    setSaving(status);
    try {
      const saved = await saveArticle(
        article?.id ?? null,
        toInput(form, status, chooseWriter),
      );
      setSaving(null);
      notify({
        title: article
          ? "Article updated successfully!"
          : status === "published"
            ? "Article published successfully!"
            : "Article created successfully!",
      });
      onSaved(saved);
    } catch (cause) {
      setSaving(null);
      if (cause instanceof ApiFailure && cause.signedOut) {
        notify({
          title: "Error",
          description: "You must be logged in to save articles.",
          variant: "destructive",
        });
        expire();
        return;
      }
      const message = failureMessage(cause);
      notify({
        title: "Error",
        description: `Failed to save article: ${message || "Unknown error"}`,
        variant: "destructive",
      });
      const field =
        cause instanceof ApiFailure ? fieldOfCode(cause.code) : null;
      if (field) showErrors({ [field]: message });
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void save("draft");
  }

  const heading = article ? "Edit Article" : "New Article";
  return (
    <section className="editor" aria-labelledby="editor-heading">
      <h2 id="editor-heading" className="editor-heading">
        {heading}
      </h2>
      <form className="form" noValidate onSubmit={onSubmit}>
        {writers ? (
          <Field id={IDS.writer} label="Writer" error={errors.writer}>
            <select
              id={IDS.writer}
              value={form.authorId}
              required
              aria-invalid={errors.writer ? true : undefined}
              aria-describedby={
                errors.writer ? `${IDS.writer}-error` : undefined
              }
              onChange={(e) => update("authorId", e.target.value)}
            >
              <option value="">Select a writer</option>
              {writers.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
              {article?.author_id &&
              !writers.some((w) => w.id === article.author_id) ? (
                <option value={article.author_id}>
                  {article.author_name ?? "Current author"}
                </option>
              ) : null}
            </select>
          </Field>
        ) : null}
        <Field id={IDS.title} label="Title" error={errors.title}>
          <input
            id={IDS.title}
            type="text"
            required
            value={form.title}
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={errors.title ? `${IDS.title}-error` : undefined}
            onChange={(e) => update("title", e.target.value)}
          />
        </Field>
        <Field id="editor-subtitle" label="Subtitle (optional)">
          <input
            id="editor-subtitle"
            type="text"
            value={form.subtitle}
            onChange={(e) => update("subtitle", e.target.value)}
          />
        </Field>
        <ContentField
          id={IDS.content}
          value={form.content}
          onChange={(v) => update("content", v)}
          error={errors.content}
          mode={mode}
          onModeChange={setMode}
        />
        <Field id="editor-category" label="Category">
          <select
            id="editor-category"
            value={form.category}
            onChange={(e) =>
              update("category", e.target.value as ArticleForm["category"])
            }
          >
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
        <CoverImageField
          value={form.coverImage}
          onChange={(url) => update("coverImage", url)}
        />
        <div className="check-field">
          <input
            id="editor-featured"
            type="checkbox"
            checked={form.featured}
            onChange={(e) => update("featured", e.target.checked)}
          />
          <label htmlFor="editor-featured">Featured article</label>
        </div>
        <div className="editor-actions">
          <Button type="submit" variant="secondary" disabled={saving !== null}>
            {saving === "draft" ? "Saving..." : "Save as Draft"}
          </Button>
          <Button
            disabled={saving !== null}
            onClick={() => void save("published")}
          >
            {saving === "published" ? "Publishing..." : "Publish"}
          </Button>
          <Button variant="quiet" disabled={saving !== null} onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}

function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
