import { useId, useState } from "react";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { formatWhen, localInputToIso } from "@/lib/newsroom";
import type { Problem } from "@/lib/problems";
import { settle, useForm } from "@/lib/use-form";
import { useStaffChanges } from "@/features/dashboards/api/changes";
import {
  approveArticle,
  decidePendingChange,
  renderBody,
  requestChanges,
} from "@/features/dashboards/api/newsroom";
import {
  useReportFailure,
  useReviewQueue,
  useStaffProblem,
} from "@/features/dashboards/api/use-staff-data";
import type { StaffArticle } from "@/features/dashboards/types";
import { ArticleLog } from "./ArticleLog";

type PendingChange = NonNullable<StaffArticle["pending_change"]>;

/**
 * Pieces waiting for review (content director, admin): what, who, since when;
 * each can be read as readers will see it, sent back with a note, or approved
 * for now or a chosen time.
 */
export function ReviewQueue() {
  const queue = useReviewQueue();
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
                change={article.pending_change}
              />
            ) : (
              <ReviewItem key={article.id} article={article} />
            ),
          )}
        </ul>
      )}
    </section>
  );
}

type Open = "none" | "read" | "changes" | "schedule" | "log";

/** A problem said in a toast, as the dashboards say them. */
const toastProblem = (message: string): Problem => ({
  title: "Error",
  message,
  fields: [],
});

/** What a reviewer does with a piece: send it back, or approve it (now or later). */
type Review = "changes" | "schedule" | "publish";

/** How a failed review is reported. */
const REVIEW_FAILED: Record<Review, string> = {
  changes: "Failed to request changes",
  schedule: "Failed to approve article",
  publish: "Failed to approve article",
};

function ReviewItem({ article }: { article: StaffArticle }) {
  const notify = useToast();
  const report = useReportFailure();
  const staffProblem = useStaffProblem();
  const changes = useStaffChanges();
  const [open, setOpen] = useState<Open>("none");
  const [html, setHtml] = useState<string | null>(null);
  const form = useForm({
    initial: { note: "", when: "" },
    check: ({ note, when }, review: Review) =>
      review === "changes" && !note.trim()
        ? toastProblem("Please say what should change.")
        : review === "schedule" && !localInputToIso(when)
          ? toastProblem("Choose when the piece should go out.")
          : null,
    send: ({ note, when }, review) =>
      settle(
        review === "changes"
          ? requestChanges(article.id, note.trim())
          : approveArticle(
              article.id,
              review === "schedule" ? localInputToIso(when) : null,
            ),
      ),
    refused: ({ cause }, _fields, review) =>
      staffProblem(REVIEW_FAILED[review], cause),
    onDone: (_article, { when }, review) => {
      if (review === "changes") {
        notify({ title: "Changes requested", description: article.title });
      } else if (review === "schedule") {
        const at = localInputToIso(when);
        notify({
          title: "Approved and scheduled",
          description: at ? formatWhen(at) : undefined,
        });
      } else {
        notify({ title: "Article published successfully!" });
      }
    },
    invalidates: () => changes.articles(),
  });
  const busy = form.busy;
  const ids = useId();
  const title = `“${article.title}”`;

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
          onClick={() => form.submit(null, "publish")}
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
        <form
          className="form review-form"
          noValidate
          onSubmit={(event) => form.submit(event, "changes")}
        >
          <div className="field">
            <label htmlFor={`${ids}-note`}>What should change?</label>
            <textarea
              id={`${ids}-note`}
              rows={3}
              maxLength={2000}
              {...form.bind("note")}
            />
          </div>
          <Button type="submit" size="sm" disabled={busy}>
            Send back to the writer
          </Button>
        </form>
      ) : null}
      {open === "schedule" ? (
        <form
          className="form review-form"
          noValidate
          onSubmit={(event) => form.submit(event, "schedule")}
        >
          <div className="field">
            <label htmlFor={`${ids}-when`}>Publish at (your time)</label>
            <input
              id={`${ids}-when`}
              type="datetime-local"
              step={1}
              {...form.bind("when")}
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
  change,
}: {
  article: StaffArticle;
  change: PendingChange;
}) {
  const notify = useToast();
  const report = useReportFailure();
  const staffProblem = useStaffProblem();
  const changes = useStaffChanges();
  const [open, setOpen] = useState<"none" | "read" | "decline">("none");
  const [html, setHtml] = useState<string | null>(null);
  const deciding = useForm({
    initial: { note: "" },
    send: ({ note }, verb: "approve" | "decline") =>
      settle(
        decidePendingChange(
          article.id,
          verb,
          change.proposed_at,
          verb === "decline" ? note.trim() || null : null,
        ),
      ),
    refused: ({ cause }, _fields, verb) =>
      staffProblem(
        verb === "approve"
          ? "Failed to approve the change"
          : "Failed to decline the change",
        cause,
      ),
    onDone: (_article, _fields, verb) =>
      notify({
        title:
          verb === "approve"
            ? "Change approved — it is live now"
            : "Change declined — the live version stays",
        description: change.title,
      }),
    invalidates: () => changes.articles(),
  });
  const busy = deciding.busy;
  const ids = useId();
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

  async function read() {
    if (open === "read") return setOpen("none");
    setOpen("read");
    if (html === null) {
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
          onClick={() => deciding.submit(null, "approve")}
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
          onSubmit={(event) => deciding.submit(event, "decline")}
        >
          <div className="field">
            <label htmlFor={`${ids}-note`}>
              A note for the writer (optional)
            </label>
            <textarea
              id={`${ids}-note`}
              rows={3}
              maxLength={2000}
              {...deciding.bind("note")}
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
