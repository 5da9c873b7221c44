import { Link } from "wouter";
import { Badge } from "@/components/Badge";
import { Button } from "@/components/Button";
import { formatShortDate } from "@/lib/dates";
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
}

export function ArticlesTable({
  labelledBy,
  articles,
  showAuthor,
  busyId,
  onEdit,
  onPublish,
  onDelete,
}: Props) {
  const zone = useDisplayTimeZone();
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
        return (
          <tr key={article.id}>
            <th scope="row" className="data-title">
              {draft ? (
                article.title
              ) : (
                <Link href={`/article/${article.slug}`}>{article.title}</Link>
              )}
            </th>
            {showAuthor ? (
              <td data-label="Author">
                {article.author_name ?? "Unknown Author"}
              </td>
            ) : null}
            <td data-label="Category">{article.category}</td>
            <td data-label="Status">
              <Badge tone={draft ? "outline" : "accent"}>
                {draft ? "Draft" : "Published"}
              </Badge>
            </td>
            <td data-label="Date">
              <time dateTime={article.created_at}>
                {formatShortDate(article.created_at, zone)}
              </time>
            </td>
            <td className="actions-cell">
              <div className="row-actions">
                <Button
                  size="sm"
                  variant="quiet"
                  aria-label={`Edit “${article.title}”`}
                  disabled={busy}
                  onClick={() => onEdit(article)}
                >
                  Edit
                </Button>
                {draft ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Publish “${article.title}”`}
                    disabled={busy}
                    onClick={() => onPublish(article)}
                  >
                    Publish
                  </Button>
                ) : null}
                <Button
                  size="sm"
                  variant="quiet"
                  className="btn-danger"
                  aria-label={`Delete “${article.title}”`}
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
