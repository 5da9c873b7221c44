import { useMutation } from "@tanstack/react-query";
import {
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
} from "react";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { ApiFailure, failureMessage } from "@/lib/api-client";
import { CATEGORIES } from "@/lib/categories";
import {
  formatWhen,
  isoToLocalInput,
  localInputToIso,
  useNewsroomRules,
} from "@/lib/newsroom";
import { messageFor, type Problem } from "@/lib/problems";
import { useSession } from "@/lib/session";
import { settle, useForm } from "@/lib/use-form";
import {
  getArticle,
  saveArticle,
  submitForReview,
  takeBackChange,
} from "@/features/editor/api/editor-api";
import {
  clearDraft,
  draftKey,
  draftToOffer,
  sameForm,
  writeDraft,
  type LocalDraft,
} from "@/features/editor/local-draft";
import {
  editorProblem,
  fieldOfCode,
  formForProposer,
  formFromArticle,
  toInput,
  validateForm,
  type ArticleForm,
  type FieldErrors,
} from "@/features/editor/article-form";
import type {
  ArticleEditorProps,
  ConflictBody,
  StaffArticle,
  Status,
} from "@/features/editor/types";
import { ContentField, type ContentMode } from "./ContentField";
import { CoverImageField } from "./CoverImageField";
import { HistoryPanel } from "./HistoryPanel";

/**
 * What a save asks for: a status, whether to submit for review after, the
 * version it is made over, and when a publish goes out (`null`: now).
 */
interface SaveRequest {
  status: Status;
  submit: boolean;
  baseVersion: number | null;
  at: string | null;
}

/**
 * Someone else saved since the editor opened: who, when, their text when
 * asked, and the save that met their version.
 */
interface Conflict {
  body: ConflictBody;
  theirs: StaffArticle | null;
  request: SaveRequest;
}

/** How long after the last keystroke the text is kept in the browser. */
const KEEP_AFTER_MS = 400;

const IDS = {
  writer: "editor-writer",
  title: "editor-title",
  content: "editor-content",
} as const;

/**
 * The article form of the writer and content-director dashboards. It saves
 * itself and reports back; the dashboard closes it, which resets it.
 */
/** Where a piece stands decides what its buttons do and say. */
function actionsFor(
  stage: StaffArticle["stage"],
  gated: boolean,
  publishAt: string,
) {
  const live = stage === "published" || stage === "scheduled";
  return {
    live,
    /** What the first button (and Enter in a field) does. */
    primary: (live ? "published" : gated ? "draft" : "published") as Status,
    primaryLabel: live
      ? gated
        ? "Submit change for review"
        : stage === "scheduled" && !publishAt
          ? "Publish now"
          : "Update"
      : publishAt
        ? "Schedule"
        : "Publish",
    /** Taking a live piece off the site, said plainly. */
    draftLabel:
      stage === "published"
        ? "Unpublish — save as draft"
        : stage === "scheduled"
          ? "Unschedule — save as draft"
          : stage === "in_review"
            ? "Save"
            : "Save as Draft",
  };
}

export function ArticleEditor({
  article,
  writers,
  onSaved,
  onCancel,
}: ArticleEditorProps) {
  const notify = useToast();
  const { user, login, hold } = useSession();
  // Open, the editor keeps the page: a list refreshed behind it that finds the
  // session over does not take the writer away from their text.
  useEffect(() => hold(), [hold]);
  const rules = useNewsroomRules();
  // Under review rules a writer submits; publishing and times are the reviewer's.
  const gated = user?.role === "writer" && rules?.review_required === true;
  // A writer's change waiting for review exists only under review rules: they
  // continue it (whether or not the rules have loaded yet).
  const [saved, setSaved] = useState<ArticleForm>(() =>
    user?.role === "writer"
      ? formForProposer(article)
      : formFromArticle(article),
  );
  const [mode, setMode] = useState<ContentMode>("write");
  const [version, setVersion] = useState<number | null>(
    article?.version ?? null,
  );
  const [publishAt, setPublishAt] = useState(() =>
    isoToLocalInput(article?.stage === "scheduled" ? article.publish_at : null),
  );
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const conflictRef = useRef<HTMLDivElement>(null);
  const [pending, setPending] = useState(article?.pending_change ?? null);
  // The save that met the end of the session, waiting for a new sign-in.
  const [signIn, setSignIn] = useState<SaveRequest | null>(null);
  const [history, setHistory] = useState(false);
  const chooseWriter = writers !== undefined;
  const isWriter = user?.role === "writer";
  const stage = article?.stage ?? "draft";
  const actions = actionsFor(stage, gated, publishAt);
  const key = draftKey(user?.id ?? "anyone", article?.id ?? null);
  const [offer, setOffer] = useState<LocalDraft | null>(() =>
    draftToOffer(key, saved),
  );
  const touched = useRef(false);

  /** Saves the article (then submits it for review, when asked). */
  async function saveArticleAs(fields: ArticleForm, request: SaveRequest) {
    const result = await saveArticle(article?.id ?? null, {
      ...toInput(fields, request.status, chooseWriter),
      ...(request.at ? { publish_at: request.at } : {}),
      ...(request.baseVersion !== null
        ? { base_version: request.baseVersion }
        : {}),
    });
    return request.submit ? submitForReview(result.id) : result;
  }

  /** A problem to show: the text is put back on screen when it is at fault. */
  function shown(found: Problem | null): Problem | null {
    if (found?.fields.includes("content")) setMode("write");
    return found;
  }

  const editor = useForm({
    initial: saved,
    check: (fields) => shown(editorProblem(validateForm(fields, chooseWriter))),
    send: (fields, request: SaveRequest) =>
      settle(saveArticleAs(fields, request)),
    refused: ({ cause }, fields, request) => {
      if (cause instanceof ApiFailure && cause.signedOut) {
        // The text stays here (and in the browser): sign in again, then it saves.
        writeDraft(key, fields);
        setSignIn(request);
        return {
          title: "Error",
          message: "You must be logged in to save articles.",
          fields: [],
        };
      }
      if (cause instanceof ApiFailure && cause.code === "edit_conflict") {
        setConflict({
          body: cause.body as ConflictBody,
          theirs: null,
          request,
        });
        return null;
      }
      const message = failureMessage(cause);
      const field =
        cause instanceof ApiFailure ? fieldOfCode(cause.code) : null;
      return shown({
        title: "Error",
        message: `Failed to save article: ${message || "Unknown error"}`,
        ...(field && message
          ? { fields: [field], messages: { [field]: message } }
          : { fields: [] }),
      });
    },
    onDone: (result, fields, request) => {
      clearDraft(key);
      touched.current = false;
      setSaved(fields);
      notify({
        title: request.submit
          ? "Submitted for review"
          : result.pending_change && request.status === "published"
            ? "Change submitted for review — the live version stays up until it is approved"
            : request.at && result.publish_at
              ? `Article scheduled for ${formatWhen(result.publish_at)}`
              : article && actions.live && result.stage === "draft"
                ? "Article unpublished — saved as a draft"
                : article && result.stage === "published"
                  ? "Article updated — the change is live"
                  : article
                    ? "Article updated successfully!"
                    : request.status === "published"
                      ? "Article published successfully!"
                      : "Article created successfully!",
      });
      onSaved(result);
    },
    idOf: (field) => `editor-${field}`,
  });
  const form = editor.fields;
  const errors: FieldErrors = {
    writer: messageFor(editor.problem, "writer"),
    title: messageFor(editor.problem, "title"),
    content: messageFor(editor.problem, "content"),
  };
  const saving = editor.sending?.status ?? null;
  const dirty = !sameForm(form, saved);

  // The session ended while saving: the key, then the save goes on.
  const signingIn = useForm({
    initial: { accessKey: "" },
    send: async ({ accessKey }) => {
      const outcome = await login(accessKey.trim());
      return outcome.ok ? { ok: true as const, data: outcome.user } : outcome;
    },
    refused: ({ message }) => ({ title: "", message, fields: ["accessKey"] }),
    onDone: () => {
      const request = signIn;
      setSignIn(null);
      signingIn.reset();
      if (request) save(request.status, request.submit);
    },
    toast: false,
  });
  const signInError = messageFor(signingIn.problem, "accessKey");

  const takingBack = useMutation({
    mutationFn: ({ id, proposedAt }: { id: string; proposedAt: string }) =>
      takeBackChange(id, proposedAt),
    onSuccess: (live) => {
      setPending(null);
      showSaved(live);
      notify({ title: "Your change was taken back" });
    },
    onError: (cause) =>
      notify({
        title: "Error",
        description: failureMessage(cause) || "Unknown error",
        variant: "destructive",
      }),
  });

  // The text is kept in the browser as it is typed (once the writer typed).
  useEffect(() => {
    if (!touched.current) return;
    const timer = window.setTimeout(() => {
      if (dirty) writeDraft(key, form);
      else clearDraft(key);
    }, KEEP_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [form, dirty, key]);

  // Leaving the page with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      writeDraft(key, form);
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty, key, form]);

  // A conflict is announced where the eye is: next to the buttons, focused.
  useEffect(() => {
    if (conflict) conflictRef.current?.focus();
  }, [conflict]);

  // Opening the form (New Article, Edit) moves focus into it.
  useEffect(() => {
    document.getElementById(chooseWriter ? IDS.writer : IDS.title)?.focus();
  }, [chooseWriter]);

  function update<K extends keyof ArticleForm>(
    field: K,
    value: ArticleForm[K],
  ) {
    touched.current = true;
    editor.set(field, value);
    // The field's own problem goes once it is changed.
    const fixed = field === "authorId" ? "writer" : field;
    if (fixed === "title" || fixed === "content" || fixed === "writer") {
      editor.setProblem(
        (problem) =>
          problem && {
            ...problem,
            fields: problem.fields.filter((f) => f !== fixed),
          },
      );
    }
  }

  function restoreOffer() {
    if (!offer) return;
    touched.current = true;
    editor.setFields(offer.form);
    setOffer(null);
  }

  function discardOffer() {
    clearDraft(key);
    setOffer(null);
  }

  /** The editor now shows `article` as saved (after a restore, say). */
  function showSaved(next: StaffArticle) {
    const nextForm = formFromArticle(next);
    setSaved(nextForm);
    editor.setFields(nextForm);
    setVersion(next.version);
    clearDraft(key);
  }

  async function seeTheirs() {
    if (!conflict || !article) return;
    try {
      const theirs = await getArticle(article.id);
      setConflict({ ...conflict, theirs });
    } catch (cause) {
      notify({
        title: "Error",
        description: failureMessage(cause) || "Unknown error",
        variant: "destructive",
      });
    }
  }

  /** Saves the text as it stands, as `status` (and submitted for review). */
  function save(status: Status, submit = false, baseVersion = version) {
    editor.submit(null, {
      status,
      submit,
      baseVersion,
      at:
        status === "published" && !gated && stage !== "published"
          ? localInputToIso(publishAt)
          : null,
    });
  }

  /** Saves over the newer version, on purpose. */
  function keepMine() {
    if (!conflict) return;
    const { request, body } = conflict;
    setVersion(body.current_version ?? null);
    setConflict(null);
    save(request.status, request.submit, body.current_version ?? version);
  }

  /** Enter in a field does what the first button does: never unpublish. */
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save(actions.live ? actions.primary : "draft");
  }

  function takeBack() {
    if (!article || !pending) return;
    takingBack.mutate({ id: article.id, proposedAt: pending.proposed_at });
  }

  const heading = article ? "Edit Article" : "New Article";
  return (
    <section className="editor" aria-labelledby="editor-heading">
      <h2 id="editor-heading" className="editor-heading">
        {heading}
      </h2>
      {offer ? (
        <div className="editor-notice" role="status">
          <p>
            You have unsaved changes from{" "}
            {new Date(offer.at).toLocaleTimeString("en-US", {
              hour: "numeric",
              minute: "2-digit",
            })}{" "}
            — restore?
          </p>
          <div className="row-actions">
            <Button size="sm" onClick={restoreOffer}>
              Restore
            </Button>
            <Button size="sm" variant="quiet" onClick={discardOffer}>
              Discard
            </Button>
          </div>
        </div>
      ) : null}
      {article?.review_note ? (
        <div className="editor-notice review-note">
          <p>
            <strong>
              Changes requested
              {article.review_note.by_name
                ? ` by ${article.review_note.by_name}`
                : ""}
              :
            </strong>{" "}
            {article.review_note.note}
          </p>
        </div>
      ) : null}
      {pending && isWriter ? (
        <div className="editor-notice" role="status">
          <p>
            Your change is waiting for review (saved{" "}
            <time dateTime={pending.proposed_at}>
              {formatWhen(pending.proposed_at)}
            </time>
            ). Readers see the live version until an editor approves it; you are
            editing your change.
          </p>
          <div className="row-actions">
            <Button size="sm" variant="quiet" onClick={takeBack}>
              Take back my change
            </Button>
          </div>
        </div>
      ) : null}
      {pending && !isWriter ? (
        <div className="editor-notice" role="status">
          <p>
            {pending.proposed_by_name ?? "A writer"} proposed a change to this
            live piece; it waits in the review queue. You are editing the live
            version.
          </p>
        </div>
      ) : null}
      {signIn ? (
        <form
          className="editor-notice form"
          noValidate
          onSubmit={signingIn.submit}
        >
          <p role="alert">
            Your session has ended. Sign in again to save: your text is kept.
          </p>
          <div className="field">
            <label htmlFor="editor-access-key">Access key</label>
            <input
              id="editor-access-key"
              type="password"
              autoComplete="current-password"
              {...signingIn.bind("accessKey")}
              aria-invalid={signInError ? true : undefined}
              aria-describedby={
                signInError ? "editor-access-key-error" : undefined
              }
            />
            {signInError ? (
              <p id="editor-access-key-error" className="field-error">
                {signInError}
              </p>
            ) : null}
          </div>
          <Button type="submit" size="sm">
            Sign in and save
          </Button>
        </form>
      ) : null}
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
        {gated || stage === "published" ? null : (
          <Field
            id="editor-publish-at"
            label="Publish at (optional, your time)"
          >
            <input
              id="editor-publish-at"
              type="datetime-local"
              step={1}
              value={publishAt}
              aria-describedby="editor-publish-at-help"
              onChange={(e) => setPublishAt(e.target.value)}
            />
            <p id="editor-publish-at-help" className="field-help">
              Leave empty to publish at once; with a time, Publish schedules it.
            </p>
          </Field>
        )}
        <div className="editor-actions">
          {actions.live ? (
            <Button type="submit" disabled={saving !== null}>
              {saving === "published" ? "Saving..." : actions.primaryLabel}
            </Button>
          ) : null}
          <Button
            type={actions.live ? "button" : "submit"}
            variant="secondary"
            disabled={saving !== null}
            onClick={actions.live ? () => save("draft") : undefined}
          >
            {saving === "draft" ? "Saving..." : actions.draftLabel}
          </Button>
          {actions.live ? null : gated ? (
            stage === "draft" ? (
              <Button
                disabled={saving !== null}
                onClick={() => save("draft", true)}
              >
                Submit for Review
              </Button>
            ) : null
          ) : (
            <Button
              disabled={saving !== null}
              onClick={() => save("published")}
            >
              {saving === "published" ? "Publishing..." : actions.primaryLabel}
            </Button>
          )}
          {isWriter && !gated && stage === "draft" ? (
            <Button
              variant="secondary"
              disabled={saving !== null}
              onClick={() => save("draft", true)}
            >
              Ask for Review
            </Button>
          ) : null}
          {article ? (
            <Button
              variant="quiet"
              aria-expanded={history}
              onClick={() => setHistory((h) => !h)}
            >
              History
            </Button>
          ) : null}
          <Button
            variant="quiet"
            disabled={saving !== null}
            onClick={() => {
              clearDraft(key);
              onCancel();
            }}
          >
            Cancel
          </Button>
        </div>
        {conflict ? (
          <div
            ref={conflictRef}
            tabIndex={-1}
            className="editor-notice editor-conflict"
            role="alert"
          >
            <p>{conflict.body.message}</p>
            <div className="row-actions">
              <Button
                size="sm"
                variant="quiet"
                onClick={() => void seeTheirs()}
              >
                See their version
              </Button>
              <Button size="sm" onClick={keepMine}>
                Save mine over it
              </Button>
            </div>
            {conflict.theirs ? (
              <TheirVersion
                theirs={conflict.theirs}
                mine={form}
                onUse={() => {
                  if (conflict.theirs) showSaved(conflict.theirs);
                  setConflict(null);
                }}
              />
            ) : null}
          </div>
        ) : null}
      </form>
      {history && article ? (
        <HistoryPanel
          articleId={article.id}
          version={version}
          onRestored={(restored, number) => {
            showSaved(restored);
            notify({ title: `Revision ${number} restored` });
          }}
        />
      ) : null}
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

/** Every field where their saved version differs from the text in the editor. */
function TheirVersion({
  theirs,
  mine,
  onUse,
}: {
  theirs: StaffArticle;
  mine: ArticleForm;
  onUse: () => void;
}) {
  const them = formFromArticle(theirs);
  const fields: { key: keyof ArticleForm; label: string }[] = [
    { key: "title", label: "Title" },
    { key: "subtitle", label: "Subtitle" },
    { key: "category", label: "Category" },
    { key: "coverImage", label: "Cover image" },
    { key: "featured", label: "Featured" },
    { key: "content", label: "Content" },
  ];
  const differing = fields.filter((f) => them[f.key] !== mine[f.key]);
  const shown = (value: ArticleForm[keyof ArticleForm]) =>
    typeof value === "boolean" ? (value ? "Yes" : "No") : value || "(empty)";
  return (
    <div className="their-version">
      <p>
        <strong>Their version</strong>
        {differing.length === 0
          ? " is the same as yours."
          : `, where it differs from yours (${differing.length}):`}
      </p>
      <dl>
        {differing.map((f) => (
          <div key={f.key}>
            <dt>{f.label}</dt>
            <dd>
              {f.key === "content" ? (
                <pre>{shown(them[f.key])}</pre>
              ) : (
                shown(them[f.key])
              )}
            </dd>
          </div>
        ))}
      </dl>
      <Button size="sm" variant="quiet" onClick={onUse}>
        Use their version
      </Button>
    </div>
  );
}
