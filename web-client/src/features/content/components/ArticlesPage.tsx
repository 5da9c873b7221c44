import { useMemo } from "react";
import { useLocation } from "wouter";
import { PageHero } from "@/components/PageHero";
import { useDocumentTitle } from "@/lib/document-title";
import { useRawSearch } from "@/lib/use-raw-search";
import { useListingPage } from "@/features/content/api/use-article-listing";
import {
  listingHref,
  nextLimit,
  parseListingQuery,
  withSearchTerm,
} from "@/features/content/listing-query";
import { ListingFilters } from "./ListingFilters";
import { ListingResults } from "./ListingResults";
import { PAGE_TITLES } from "@/lib/pages.gen";

export function ArticlesPage() {
  useDocumentTitle(PAGE_TITLES["/articles"]);
  const search = useRawSearch();
  const query = useMemo(() => parseListingQuery(search), [search]);
  const [, navigate] = useLocation();
  const results = useListingPage(
    query,
    listingHref({ ...query, limit: nextLimit(query) }),
  );

  return (
    <>
      <PageHero
        title="Articles"
        eyebrow="Student Journalism"
        lead="Analysis, opinion and reporting on global politics, written by high school students."
      />
      <section className="section" aria-label="Article search and results">
        <div className="container">
          <ListingFilters
            query={query}
            onSearch={(q) => navigate(listingHref(withSearchTerm(query, q)))}
          />
          <div aria-busy={results.list === null || results.loadingMore}>
            <ListingResults
              {...results}
              suggestionHref={(q) => listingHref(withSearchTerm(query, q))}
            />
          </div>
        </div>
      </section>
    </>
  );
}
