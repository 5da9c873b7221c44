import { useMemo } from "react";
import { Link } from "wouter";
import { ButtonLink } from "@/components/Button";
import { PageHero } from "@/components/PageHero";
import { useDocumentTitle } from "@/lib/document-title";
import { useRawSearch } from "@/lib/use-raw-search";
import { useListingPage } from "@/features/content/api/use-article-listing";
import type { CategoryPage as Page } from "@/features/content/categories";
import {
  categoryHref,
  categoryListing,
  listingHref,
  nextLimit,
  PAGE_SIZE,
} from "@/features/content/listing-query";
import { ListingResults } from "./ListingResults";

/** "/category/{slug}": one category's pieces, newest first, with its feed. */
export function CategoryPage({ category }: { category: Page }) {
  useDocumentTitle(category.name);
  const search = useRawSearch();
  const query = useMemo(
    () => categoryListing(category.name, search),
    [category.name, search],
  );
  const results = useListingPage(
    query,
    categoryHref(category.path, nextLimit(query)),
  );

  return (
    <>
      <PageHero
        title={category.name}
        eyebrow="Category"
        lead={category.description}
      >
        <a
          href={category.feed}
          type="application/atom+xml"
          className="inverse-link"
        >
          Follow {category.name} in a feed reader
        </a>
        <Link
          href={listingHref({ ...query, limit: PAGE_SIZE })}
          className="inverse-link"
        >
          Search these articles
        </Link>
      </PageHero>
      <section className="section" aria-label={`${category.name} articles`}>
        <div className="container">
          <div aria-busy={results.list === null || results.loadingMore}>
            <ListingResults
              {...results}
              suggestionHref={(q) => listingHref({ ...query, q })}
              empty={
                <div className="empty-state">
                  <h2 className="empty-title">No articles here yet</h2>
                  <p>Nothing in {category.name} has been published so far.</p>
                  <ButtonLink href="/articles" variant="secondary">
                    All articles
                  </ButtonLink>
                </div>
              }
            />
          </div>
        </div>
      </section>
    </>
  );
}
