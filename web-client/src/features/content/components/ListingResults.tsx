import type { MouseEvent, ReactNode } from "react";
import { Link } from "wouter";
import { ButtonLink } from "@/components/Button";
import type { ListingPage } from "@/features/content/api/use-article-listing";
import {
  LISTING_PATH,
  hasMore,
  totalLabel,
} from "@/features/content/listing-query";
import { ArticleCard } from "./ArticleCard";
import { LoadFailedNotice } from "./LoadFailedNotice";

interface ListingResultsProps extends ListingPage {
  /** Where "Did you mean …?" leads for the list's suggestion. */
  suggestionHref: (q: string) => string;
  /** What an empty list says instead of the search's "No articles found". */
  empty?: ReactNode;
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
  empty,
}: ListingResultsProps) {
  if (failed) return <LoadFailedNotice onRetry={onRetry} />;
  if (list === null) {
    return (
      <p className="status-text" role="status">
        Loading articles...
      </p>
    );
  }
  if (list.items.length === 0 && empty) return <>{empty}</>;
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
