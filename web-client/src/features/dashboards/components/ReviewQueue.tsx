import { useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { formatWhen, localInputToIso } from "@/lib/newsroom";
import { articlesChanged } from "@/features/dashboards/api/changes";
import {
  approveArticle,
  decidePendingChange,
  renderBody,
  requestChanges,
} from "@/features/dashboards/api/newsroom";
import {
  useReportFailure,
  useReviewQueue,
} from "@/features/dashboards/api/use-staff-data";
import type { StaffArticle } from "@/features/dashboards/types";
import { ArticleLog } from "./ArticleLog";

/**
 * Pieces waiting for review (content director, admin): what, who, since when;
 * each can be read as readers will see it, sent back with a note, or approved
 * for now or a chosen time.
 */
export function ReviewQueue({
  onArticlesChanged,
}: {
  onArticlesChanged?: (() => void) | undefined;
}) {
  const queue = useReviewQueue();
  const queryClient = useQueryClient();
  const refresh = () => articlesChanged(queryClient, onArticlesChanged);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="review-queue">
      <h2 id={headingId} className="dashboard-subtitle">
        Review queue ({queue?.length ?? 0})
      </h2>
      {queue === null ? (
        <p className="status-text" role="status">
          Loading the review queue...
        </p>
      ) : queue.length === 0 ? (
        <p className="muted">Nothing is waiting for review.</p>
      ) : (
        <ul className="review-list">
          {queue.map((article) =>
            article.pending_change && article.stage !== "in_review" ? (
              <ChangeItem
                key={article.id}
                article={article}
                refresh={refresh}
              />
            ) : (
              <ReviewItem
                key={article.id}
                article={article}
                refresh={refresh}
              />
            ),
          )}
        </ul>
      )}
    </section>
  );
}

type Open = "none" | "read" | "changes" | "schedule" | "log";

function ReviewItem({
  article,
  refresh,
}: {
  article: StaffArticle;
  refresh: () => Promise<void>;
}) {
  const notify = useToast();
  const report = useReportFailure();
  const [open, setOpen] = useState<Open>("none");
  const [html, setHtml] = useState<string | null>(null);
  const [note, setNote] = useState("");
  const [when, setWhen] = useState("");
  const [busy, setBusy] = useState(false);
  const ids = useId();
  const title = `“${article.title}”`;

  async function run(what: string, action: () => Promise<unknown>) {
    setBusy(true);
    try {
      await action();
      await refresh();
    } catch (cause) {
      report(what, cause);
    } finally {
      setBusy(false);
    }
  }

  async function read() {
    if (open === "read") return setOpen("none");
    setOpen("read");
    if (html === null) {
      try {
        setHtml(await renderBody(article.content));
      } catch (cause) {
        report("Failed to load the preview", cause);
      }
    }
  }

  function sendBack(event: FormEvent) {
    event.preventDefault();
    if (!note.trim()) {
      notify({
        title: "Error",
        description: "Please say what should change.",
        variant: "destructive",
      });
      return;
    }
    void run("Failed to request changes", async () => {
      await requestChanges(article.id, note.trim());
      notify({ title: "Changes requested", description: article.title });
    });
  }

  function schedule(event: FormEvent) {
    event.preventDefault();
    const at = localInputToIso(when);
    if (!at) {
      notify({
        title: "Error",
        description: "Choose when the piece should go out.",
        variant: "destructive",
      });
      return;
    }
    void run("Failed to approve article", async () => {
      await approveArticle(article.id, at);
      notify({ title: "Approved and scheduled", description: formatWhen(at) });
    });
  }

  return (
    <li className="review-item">
      <div className="review-head">
        <p className="review-title">{article.title}</p>
        <p className="muted">
          {article.author_name ?? "Unknown Author"}
          {article.submitted_at ? (
            <>
              {" · waiting since "}
              <time dateTime={article.submitted_at}>
                {formatWhen(article.submitted_at)}
              </time>
            </>
          ) : null}
        </p>
      </div>
      <div className="row-actions">
        <Button
          size="sm"
          variant="quiet"
          aria-expanded={open === "read"}
          aria-label={`Read ${title}`}
          onClick={() => void read()}
        >
          Read
        </Button>
        <Button
          size="sm"
          variant="quiet"
          aria-expanded={open === "log"}
          aria-label={`Log of ${title}`}
          onClick={() => setOpen(open === "log" ? "none" : "log")}
        >
          Log
        </Button>
        <Button
          size="sm"
          variant="quiet"
          aria-expanded={open === "changes"}
          aria-label={`Request changes to ${title}`}
          disabled={busy}
          onClick={() => setOpen(open === "changes" ? "none" : "changes")}
        >
          Request changes
        </Button>
        <Button
          size="sm"
          variant="secondary"
          aria-expanded={open === "schedule"}
          aria-label={`Approve for later ${title}`}
          disabled={busy}
          onClick={() => setOpen(open === "schedule" ? "none" : "schedule")}
        >
          Approve for later
        </Button>
        <Button
          size="sm"
          aria-label={`Approve & publish ${title}`}
          disabled={busy}
          onClick={() =>
            void run("Failed to approve article", async () => {
              await approveArticle(article.id, null);
              notify({ title: "Article published successfully!" });
            })
          }
        >
          Approve &amp; publish
        </Button>
      </div>
      {open === "read" ? (
        <div className="review-preview">
          <h3>{article.title}</h3>
          {article.subtitle ? (
            <p className="muted">{article.subtitle}</p>
          ) : null}
          <RenderedBody html={html} />
        </div>
      ) : null}
      {open === "log" ? <ArticleLog articleId={article.id} /> : null}
      {open === "changes" ? (
        <form className="form review-form" noValidate onSubmit={sendBack}>
          <div className="field">
            <label htmlFor={`${ids}-note`}>What should change?</label>
            <textarea
              id={`${ids}-note`}
              rows={3}
              value={note}
              maxLength={2000}
              onChange={(e) => setNote(e.target.value)}
            />
          </div>
          <Button type="submit" size="sm" disabled={busy}>
            Send back to the writer
          </Button>
        </form>
      ) : null}
      {open === "schedule" ? (
        <form className="form review-form" noValidate onSubmit={schedule}>
          <div className="field">
            <label htmlFor={`${ids}-when`}>Publish at (your time)</label>
            <input
              id={`${ids}-when`}
              type="datetime-local"
              step={1}
              value={when}
              onChange={(e) => setWhen(e.target.value)}
            />
          </div>
          <Button type="submit" size="sm" disabled={busy}>
            Approve and schedule
          </Button>
        </form>
      ) : null}
    </li>
  );
}

/**
 * A writer's change to a live piece: the live version stays up until the
 * reviewer approves the change (it goes live at once) or declines it.
 */
function ChangeItem({
  article,
  refresh,
}: {
  article: StaffArticle;
  refresh: () => Promise<void>;
}) {
  const notify = useToast();
  const report = useReportFailure();
  const [open, setOpen] = useState<"none" | "read" | "decline">("none");
  const [html, setHtml] = useState<string | null>(null);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const ids = useId();
  const change = article.pending_change;
  if (!change) return null;
  const title = `“${article.title}”`;
  const differs: [
    string,
    string | null | undefined,
    string | null | undefined,
  ][] = [
    ["Title", article.title, change.title],
    ["Subtitle", article.subtitle, change.subtitle],
    ["Category", article.category, change.category],
    ["Cover image", article.cover_image, change.cover_image],
    [
      "Featured",
      article.featured ? "Yes" : "No",
      change.featured ? "Yes" : "No",
    ],
  ];
  const changed = differs.filter(
    ([, live, next]) => (live ?? "") !== (next ?? ""),
  );
  const bodyChanged = article.content !== change.content;

  async function decide(verb: "approve" | "decline") {
    if (!change) return;
    setBusy(true);
    try {
      await decidePendingChange(
        article.id,
        verb,
        change.proposed_at,
        verb === "decline" ? note.trim() || null : null,
      );
      notify({
        title:
          verb === "approve"
            ? "Change approved — it is live now"
            : "Change declined — the live version stays",
        description: change.title,
      });
      await refresh();
    } catch (cause) {
      report(
        verb === "approve"
          ? "Failed to approve the change"
          : "Failed to decline the change",
        cause,
      );
    } finally {
      setBusy(false);
    }
  }

  async function read() {
    if (open === "read") return setOpen("none");
    setOpen("read");
    if (html === null && change) {
      try {
        setHtml(await renderBody(change.content));
      } catch (cause) {
        report("Failed to load the preview", cause);
      }
    }
  }

  return (
    <li className="review-item">
      <div className="review-head">
        <p className="review-title">Change to a live piece: {article.title}</p>
        <p className="muted">
          {change.proposed_by_name ?? article.author_name ?? "Unknown Author"}
          {" · waiting since "}
          <time dateTime={change.proposed_at}>
            {formatWhen(change.proposed_at)}
          </time>
        </p>
        <p className="muted">
          Changes:{" "}
          {[
            ...changed.map(([label]) => label),
            ...(bodyChanged ? ["Text"] : []),
          ].join(", ") || "none"}
        </p>
      </div>
      <div className="row-actions">
        <Button
          size="sm"
          variant="quiet"
          aria-expanded={open === "read"}
          aria-label={`Read the change to ${title}`}
          onClick={() => void read()}
        >
          Read the change
        </Button>
        <Button
          size="sm"
          variant="quiet"
          aria-expanded={open === "decline"}
          aria-label={`Decline the change to ${title}`}
          disabled={busy}
          onClick={() => setOpen(open === "decline" ? "none" : "decline")}
        >
          Decline
        </Button>
        <Button
          size="sm"
          aria-label={`Approve the change to ${title}`}
          disabled={busy}
          onClick={() => void decide("approve")}
        >
          Approve change
        </Button>
      </div>
      {open === "read" ? (
        <div className="review-preview">
          {changed.length > 0 ? (
            <dl>
              {changed.map(([label, live, next]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>
                    <del>{live || "(empty)"}</del> →{" "}
                    <ins>{next || "(empty)"}</ins>
                  </dd>
                </div>
              ))}
            </dl>
          ) : null}
          <h3>{change.title}</h3>
          <RenderedBody html={html} />
        </div>
      ) : null}
      {open === "decline" ? (
        <form
          className="form review-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void decide("decline");
          }}
        >
          <div className="field">
            <label htmlFor={`${ids}-note`}>
              A note for the writer (optional)
            </label>
            <textarea
              id={`${ids}-note`}
              rows={3}
              value={note}
              maxLength={2000}
              onChange={(e) => setNote(e.target.value)}
            />
          </div>
          <Button type="submit" size="sm" disabled={busy}>
            Decline the change
          </Button>
        </form>
      ) : null}
    </li>
  );
}

/** A body as the server renders it for the article page (sanitised there). */
function RenderedBody({ html }: { html: string | null }) {
  return html === null ? (
    <p className="status-text" role="status">
      Loading...
    </p>
  ) : (
    <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
  );
}
