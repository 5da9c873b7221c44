import type { FormEvent } from "react";
import { Link } from "wouter";
import { CheckIcon, SearchIcon } from "@/components/icons";
import { CATEGORIES } from "@/features/content/categories";
import {
  LISTING_PATH,
  clearCategories,
  listingHref,
  toggleCategory,
  withOrder,
  type ListingQuery,
} from "@/features/content/listing-query";

interface ListingFiltersProps {
  query: ListingQuery;
  onSearch: (q: string) => void;
}

/** Search box and category chips. Without JavaScript the form submits as GET
 * and each chip is a plain link to the toggled URL. */
export function ListingFilters({ query, onSearch }: ListingFiltersProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(String(new FormData(event.currentTarget).get("q") ?? ""));
  };
  const noneSelected = query.categories.length === 0;

  return (
    <div className="filters">
      <form
        action={LISTING_PATH}
        method="get"
        role="search"
        className="search"
        onSubmit={submit}
      >
        <label htmlFor="article-search" className="sr-only">
          Search articles
        </label>
        <SearchIcon className="search-icon" />
        <input
          key={query.q}
          id="article-search"
          className="search-input"
          type="search"
          name="q"
          placeholder="Search articles..."
          defaultValue={query.q}
        />
        {query.categories.map((c) => (
          <input key={c} type="hidden" name="category" value={c} />
        ))}
        <button type="submit" className="btn btn-primary search-button">
          Search
        </button>
      </form>
      {query.q ? <OrderControl query={query} /> : null}
      <nav aria-label="Filter by category">
        <ul className="chips">
          <li>
            <Link
              href={listingHref(clearCategories(query))}
              className={noneSelected ? "chip is-selected" : "chip"}
            >
              All
              {noneSelected ? (
                <span className="sr-only"> (selected)</span>
              ) : null}
            </Link>
          </li>
          {CATEGORIES.map((category) => {
            const selected = query.categories.includes(category);
            return (
              <li key={category}>
                <Link
                  href={listingHref(toggleCategory(query, category))}
                  className={selected ? "chip is-selected" : "chip"}
                >
                  {selected ? <CheckIcon className="chip-check" /> : null}
                  {category}
                  {selected ? (
                    <span className="sr-only"> (selected)</span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </div>
  );
}

/** A search's order: best match first (the default) or newest first. Plain
 * links, so it works without JavaScript. */
function OrderControl({ query }: { query: ListingQuery }) {
  const options = [
    { label: "Best match", newest: false },
    { label: "Newest", newest: true },
  ];
  return (
    <nav aria-label="Order of results" className="order">
      <span className="order-label" aria-hidden="true">
        Sort:
      </span>
      <ul className="order-options">
        {options.map(({ label, newest }) => {
          const current = query.newest === newest;
          return (
            <li key={label}>
              <Link
                href={listingHref(withOrder(query, newest))}
                className={current ? "order-option is-current" : "order-option"}
                aria-current={current ? "true" : undefined}
              >
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
