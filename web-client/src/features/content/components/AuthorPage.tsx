import { keepPreviousData } from "@tanstack/react-query";
import { Fragment, type ReactNode } from "react";
import { useLocation } from "wouter";
import { CoverImage } from "@/components/CoverImage";
import { LoadingSection } from "@/components/LoadingSection";
import { PageHero } from "@/components/PageHero";
import { useDocumentTitle } from "@/lib/document-title";
import { useRawSearch } from "@/lib/use-raw-search";
import { authorHref, authorQuery } from "@/features/content/api/get-author";
import {
  MAX_LIMIT,
  PAGE_SIZE,
  parseLimit,
} from "@/features/content/listing-query";
import { ListingResults } from "./ListingResults";
import { LoadFailedNotice } from "./LoadFailedNotice";
import { useQuery } from "@/lib/use-query";

/** A bio as written: its line breaks kept, nothing in it read as markup. */
function Lines({ text }: { text: string }) {
  const lines = text.split("\n");
  return (
    <>
      {lines.map((line, i) => (
        <Fragment key={i}>
          {i > 0 ? <br /> : null}
          {line}
        </Fragment>
      ))}
    </>
  );
}

/**
 * "/author/{slug}": a contributor — the name they chose to show, their role
 * and bio — and their pieces, newest first, with "Load More" (a link to the
 * longer page, so it also works without JavaScript).
 */
export function AuthorPage({
  slug,
  notFound,
}: {
  slug: string;
  /** What the page shows when nobody has a page at `slug`. */
  notFound: ReactNode;
}) {
  const search = useRawSearch();
  const [, navigate] = useLocation();
  const limit = parseLimit(new URLSearchParams(search).get("limit"));
  const { data, isError, isFetching, isPlaceholderData, refetch } = useQuery({
    ...authorQuery(slug, limit),
    // The shorter list stays on screen while the longer one loads.
    placeholderData: keepPreviousData,
  });
  const found = data?.kind === "found" ? data.page : null;
  useDocumentTitle(
    found ? found.author.name : data?.kind === "not_found" ? "" : "Contributor",
  );

  if (data?.kind === "not_found") return <>{notFound}</>;
  if (!found) {
    if (!isError) return <LoadingSection title="Contributor" />;
    return (
      <div className="section">
        <div className="container">
          <LoadFailedNotice onRetry={() => void refetch()} />
        </div>
      </div>
    );
  }
  const { author, articles } = found;
  const more = authorHref(
    author.slug,
    Math.min(limit + PAGE_SIZE, MAX_LIMIT),
    PAGE_SIZE,
  );
  return (
    <>
      <PageHero
        figure={
          author.photo ? (
            <CoverImage
              className="author-photo"
              src={author.photo}
              alt={`Photo of ${author.name}`}
              width={128}
              height={128}
              sizes="128px"
              eager
            />
          ) : undefined
        }
        title={author.name}
        eyebrow={author.role}
        lead={author.bio ? <Lines text={author.bio} /> : undefined}
      >
        <a
          href={`/feed/author/${encodeURIComponent(author.slug)}.xml`}
          type="application/atom+xml"
          className="inverse-link"
        >
          {`Follow ${author.name} in a feed reader`}
        </a>
      </PageHero>
      <section className="section" aria-labelledby="author-articles">
        <div className="container">
          <h2 id="author-articles" className="section-title section-head">
            {`Articles by ${author.name}`}
          </h2>
          <div aria-busy={isPlaceholderData && isFetching}>
            <ListingResults
              list={articles}
              failed={false}
              onRetry={() => void refetch()}
              loadMoreHref={more}
              loadingMore={isPlaceholderData && isFetching}
              asked={limit}
              onLoadMore={() => navigate(more, { replace: true })}
              suggestionHref={() => "/articles"}
            />
          </div>
        </div>
      </section>
    </>
  );
}
