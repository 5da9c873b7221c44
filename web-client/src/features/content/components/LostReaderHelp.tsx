import { SearchIcon } from "@/components/icons";
import { LISTING_PATH } from "@/features/content/listing-query";
import { useNewestArticles } from "@/features/content/api/get-articles";
import { ArticleGrid } from "./ArticleGrid";

/**
 * What a page that is not there offers: a search of the articles (a plain GET
 * form, so it works without JavaScript) and the newest articles.
 */
export function LostReaderHelp() {
  const { list } = useNewestArticles();
  const items = list?.items ?? [];
  return (
    <div className="lost-help">
      <form
        action={LISTING_PATH}
        method="get"
        role="search"
        className="search lost-search"
      >
        <label htmlFor="lost-search" className="sr-only">
          Search articles
        </label>
        <SearchIcon className="search-icon" />
        <input
          id="lost-search"
          className="search-input"
          type="search"
          name="q"
          placeholder="Search articles..."
        />
        <button type="submit" className="btn btn-primary search-button">
          Search
        </button>
      </form>
      {items.length > 0 ? (
        <section aria-labelledby="lost-newest" className="lost-newest">
          <h2 id="lost-newest" className="section-title">
            Newest articles
          </h2>
          <ArticleGrid items={items} />
        </section>
      ) : null}
    </div>
  );
}
