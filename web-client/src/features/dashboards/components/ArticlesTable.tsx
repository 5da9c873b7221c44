import { Link } from "wouter";
import { Badge } from "@/components/Badge";
import { Button } from "@/components/Button";
import { formatShortDate } from "@/lib/dates";
import { formatWhen, STAGE_LABELS } from "@/lib/newsroom";
import { useDisplayTimeZone } from "@/lib/time-zone";
import type { StaffArticle } from "@/features/dashboards/types";
import { DataTable } from "./DataTable";

interface Props {
  /** The id of the heading that names the table. */
  labelledBy: string;
  articles: readonly StaffArticle[];
  showAuthor: boolean;
  busyId: string | null;
  onEdit: (article: StaffArticle) => void;
  onPublish: (article: StaffArticle) => void;
  onDelete: (article: StaffArticle) => void;
  /** Ask for review (drafts); absent: not offered. */
  onSubmit?: ((article: StaffArticle) => void) | undefined;
  /** Take a piece out of review (writers, their own). */
  onWithdraw?: ((article: StaffArticle) => void) | undefined;
  /** Pull a scheduled piece back to draft. */
  onUnschedule?: ((article: StaffArticle) => void) | undefined;
  /** Whether the one-click Publish is offered (not to writers under review rules). */
  canPublish?: boolean;
  /** Show who moved the piece when (reviewers). */
  onLog?: ((article: StaffArticle) => void) | undefined;
}

const STAGE_TONES = {
  draft: "outline",
  in_review: "gold",
  scheduled: "soft",
  published: "accent",
} as const;

export function ArticlesTable({
  labelledBy,
  articles,
  showAuthor,
  busyId,
  onEdit,
  onPublish,
  onDelete,
  onSubmit,
  onWithdraw,
  onUnschedule,
  canPublish = true,
  onLog,
}: Props) {
  const zone = useDisplayTimeZone();
  // Under review rules the writer submits; otherwise a second reader is optional.
  const submitWord = canPublish ? "Ask for review" : "Submit for review";
  return (
    <DataTable
      labelledBy={labelledBy}
      columns={
        showAuthor
          ? ["Title", "Author", "Category", "Status", "Date"]
          : ["Title", "Category", "Status", "Date"]
      }
    >
      {articles.map((article) => {
        const busy = busyId === article.id;
        const draft = article.status === "draft";
        const stage = article.stage;
        const label = (verb: string) => `${verb} “${article.title}”`;
        return (
          <tr key={article.id}>
            <th scope="row" className="data-title">
              {draft ? (
                article.title
              ) : (
                <Link href={`/article/${article.slug}`}>{article.title}</Link>
              )}
              {article.review_note ? (
                <p className="review-note">
                  <strong>
                    Changes requested
                    {article.review_note.by_name
                      ? ` by ${article.review_note.by_name}`
                      : ""}
                    :
                  </strong>{" "}
                  {article.review_note.note}
                </p>
              ) : null}
            </th>
            {showAuthor ? (
              <td data-label="Author">
                {article.author_name ?? "Unknown Author"}
              </td>
            ) : null}
            <td data-label="Category">{article.category}</td>
            <td data-label="Status">
              <Badge tone={STAGE_TONES[stage]}>{STAGE_LABELS[stage]}</Badge>
              {stage === "scheduled" && article.publish_at ? (
                <span className="stage-when">
                  {" "}
                  <time dateTime={article.publish_at}>
                    {formatWhen(article.publish_at)}
                  </time>
                </span>
              ) : null}
            </td>
            <td data-label="Date">
              <time dateTime={article.created_at}>
                {formatShortDate(article.created_at, zone)}
              </time>
            </td>
            <td className="actions-cell">
              <div className="row-actions">
                {stage === "in_review" && onWithdraw ? (
                  <Button
                    size="sm"
                    variant="quiet"
                    aria-label={label("Withdraw")}
                    disabled={busy}
                    onClick={() => onWithdraw(article)}
                  >
                    Withdraw
                  </Button>
                ) : (
                  <Button
                    size="sm"
                    variant="quiet"
                    aria-label={label("Edit")}
                    disabled={busy}
                    onClick={() => onEdit(article)}
                  >
                    Edit
                  </Button>
                )}
                {stage === "draft" && onSubmit ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={label(submitWord)}
                    disabled={busy}
                    onClick={() => onSubmit(article)}
                  >
                    {submitWord}
                  </Button>
                ) : null}
                {stage === "draft" && canPublish ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={label("Publish")}
                    disabled={busy}
                    onClick={() => onPublish(article)}
                  >
                    Publish
                  </Button>
                ) : null}
                {stage === "scheduled" && onUnschedule ? (
                  <Button
                    size="sm"
                    variant="quiet"
                    aria-label={label("Pull back")}
                    disabled={busy}
                    onClick={() => onUnschedule(article)}
                  >
                    Pull back
                  </Button>
                ) : null}
                {onLog ? (
                  <Button
                    size="sm"
                    variant="quiet"
                    aria-label={label("Log of")}
                    onClick={() => onLog(article)}
                  >
                    Log
                  </Button>
                ) : null}
                <Button
                  size="sm"
                  variant="quiet"
                  className="btn-danger"
                  aria-label={label("Delete")}
                  disabled={busy}
                  onClick={() => onDelete(article)}
                >
                  Delete
                </Button>
              </div>
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
