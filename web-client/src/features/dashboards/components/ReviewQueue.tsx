import { useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { formatWhen, localInputToIso } from "@/lib/newsroom";
import { articlesChanged } from "@/features/dashboards/api/changes";
import {
  approveArticle,
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
          {queue.map((article) => (
            <ReviewItem key={article.id} article={article} refresh={refresh} />
          ))}
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
          {html === null ? (
            <p className="status-text" role="status">
              Loading...
            </p>
          ) : (
            <div
              className="prose"
              // The server's sanitised rendering, as on the article page.
              dangerouslySetInnerHTML={{ __html: html }}
            />
          )}
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
