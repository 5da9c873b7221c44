import type { MouseEvent } from "react";
import { Link } from "wouter";
import { ButtonLink } from "@/components/Button";
import type { ArticleList } from "@/features/content/api/types";
import {
  LISTING_PATH,
  hasMore,
  totalLabel,
} from "@/features/content/listing-query";
import { ArticleCard } from "./ArticleCard";
import { LoadFailedNotice } from "./LoadFailedNotice";

interface ListingResultsProps {
  list: ArticleList | null;
  /** Where "Did you mean …?" leads for the list's suggestion. */
  suggestionHref: (q: string) => string;
  failed: boolean;
  onRetry: () => void;
  loadMoreHref: string;
  loadingMore: boolean;
  /** How many results the reader asked for (a shorter list is the end). */
  asked: number;
  onLoadMore: () => void;
}

export function ListingResults({
  list,
  suggestionHref,
  failed,
  onRetry,
  loadMoreHref,
  loadingMore,
  asked,
  onLoadMore,
}: ListingResultsProps) {
  if (failed) return <LoadFailedNotice onRetry={onRetry} />;
  if (list === null) {
    return (
      <p className="status-text" role="status">
        Loading articles...
      </p>
    );
  }
  if (list.items.length === 0) {
    return (
      <div className="empty-state">
        <h2 className="empty-title">No articles found</h2>
        {list.suggestion ? (
          <p className="suggestion">
            Did you mean{" "}
            <Link href={suggestionHref(list.suggestion)}>
              <em>{list.suggestion}</em>
            </Link>
            ?
          </p>
        ) : null}
        <p>
          {list.published_total === 0
            ? "No published articles available yet"
            : "Try adjusting your search terms or selected categories"}
        </p>
        <ButtonLink href={LISTING_PATH} variant="secondary">
          Clear Filters
        </ButtonLink>
      </div>
    );
  }

  // Plain clicks load the next page in place; without JavaScript (or with a
  // modifier key) the link asks the server for the longer list.
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    if (
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      event.button !== 0
    ) {
      return;
    }
    event.preventDefault();
    if (!loadingMore) onLoadMore();
  };

  return (
    <>
      <p className="result-count" role="status">
        Showing {list.items.length} of{" "}
        {totalLabel(list.total, list.total_exact)}{" "}
        {list.total === 1 && list.total_exact ? "article" : "articles"}
      </p>
      <ul className="card-grid">
        {list.items.map((article, index) => (
          <li key={article.id}>
            <ArticleCard
              article={article}
              eager={index === 0}
              headingLevel="h2"
            />
          </li>
        ))}
      </ul>
      {hasMore(list.items.length, list.total, list.total_exact, asked) ? (
        <div className="section-actions">
          <a
            href={loadMoreHref}
            className="btn btn-secondary btn-lg"
            onClick={click}
            aria-disabled={loadingMore || undefined}
          >
            {loadingMore ? "Loading..." : "Load More Articles"}
          </a>
        </div>
      ) : null}
    </>
  );
}
