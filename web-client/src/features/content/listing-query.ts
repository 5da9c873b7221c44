// The /articles URL (q, category repeated, limit) is the single source of truth
// for the listing. These pure helpers read it, change it and write it back.
import { toSearch, type QueryEntry } from "@/lib/query-string";
import { CATEGORIES, isCategory, type Category } from "./categories";

export const PAGE_SIZE = 6;
/** The largest whole number of pages within the API's maximum `limit` of 50. */
export const MAX_LIMIT = 48;
const MAX_SEARCH_CHARS = 200;
export const LISTING_PATH = "/articles";

export interface ListingQuery {
  q: string;
  /** Selected categories, deduplicated, in canonical order. */
  categories: Category[];
  /** How many results to show from the start: a multiple of PAGE_SIZE. */
  limit: number;
  /** A search shown newest first (`sort=newest`) instead of best match first. */
  newest: boolean;
}

export const EMPTY_QUERY: ListingQuery = {
  q: "",
  categories: [],
  limit: PAGE_SIZE,
  newest: false,
};

function canonical(categories: Iterable<string>): Category[] {
  const chosen = new Set(categories);
  return CATEGORIES.filter((c) => chosen.has(c));
}

// Read leniently, the way the server reads the page URL: the limit is rounded
// down to whole pages within [PAGE_SIZE, MAX_LIMIT], the search is cut to 200
// characters and then trimmed, and unknown categories are ignored.
export function parseLimit(raw: string | null): number {
  if (raw === null || !/^\d+$/.test(raw.trim())) return PAGE_SIZE;
  const whole = Math.floor(Number(raw.trim()) / PAGE_SIZE) * PAGE_SIZE;
  return Math.min(Math.max(whole, PAGE_SIZE), MAX_LIMIT);
}

/**
 * What a category's page lists, from its search string: the category's
 * newest pieces, as many as `limit` asks (read as on /articles).
 */
export function categoryListing(
  category: Category,
  search: string,
): ListingQuery {
  return {
    q: "",
    categories: [category],
    limit: parseLimit(new URLSearchParams(search).get("limit")),
    newest: false,
  };
}

/** A category page's address showing `limit` pieces; the default is left out. */
export function categoryHref(path: string, limit: number): string {
  return limit === PAGE_SIZE ? path : `${path}?limit=${limit}`;
}

/** Reads a listing query from a search string (with or without "?"). */
export function parseListingQuery(search: string): ListingQuery {
  const params = new URLSearchParams(search);
  const q = Array.from(params.get("q") ?? "")
    .slice(0, MAX_SEARCH_CHARS)
    .join("");
  return {
    q: q.trim(),
    categories: canonical(params.getAll("category").filter(isCategory)),
    limit: parseLimit(params.get("limit")),
    // Only a search has an order to choose.
    newest: q.trim() !== "" && params.get("sort") === "newest",
  };
}

/** A listing query received from elsewhere, e.g. the server's page data. */
export function normaliseListingQuery(query: {
  q: string;
  categories: readonly string[];
  limit: number;
  newest: boolean;
}): ListingQuery {
  const q = query.q.trim();
  return {
    q,
    categories: canonical(query.categories),
    limit: query.limit,
    newest: q !== "" && query.newest,
  };
}

/** The /articles URL for a query; defaults are left out. */
export function listingHref(query: ListingQuery): string {
  const entries: QueryEntry[] = [];
  if (query.q) entries.push(["q", query.q]);
  for (const c of canonical(query.categories)) entries.push(["category", c]);
  if (query.limit !== PAGE_SIZE) entries.push(["limit", String(query.limit)]);
  if (query.q && query.newest) entries.push(["sort", "newest"]);
  return LISTING_PATH + toSearch(entries);
}

/** Chip click: add or remove one category; the result list starts over. */
export function toggleCategory(
  query: ListingQuery,
  category: Category,
): ListingQuery {
  const selected = query.categories.includes(category)
    ? query.categories.filter((c) => c !== category)
    : [...query.categories, category];
  return {
    q: query.q,
    categories: canonical(selected),
    limit: PAGE_SIZE,
    newest: query.newest,
  };
}

/** The "All" chip: no category filter, search kept. */
export function clearCategories(query: ListingQuery): ListingQuery {
  return { q: query.q, categories: [], limit: PAGE_SIZE, newest: query.newest };
}

/** A new search term; categories kept, the result list starts over. */
export function withSearchTerm(query: ListingQuery, q: string): ListingQuery {
  return {
    q: q.trim(),
    categories: query.categories,
    limit: PAGE_SIZE,
    newest: query.newest,
  };
}

/** The order control: best match first, or newest first; the list starts over. */
export function withOrder(query: ListingQuery, newest: boolean): ListingQuery {
  return { ...query, limit: PAGE_SIZE, newest };
}

/** "Load More Articles" shows the next page. */
export function nextLimit(query: ListingQuery): number {
  return query.limit + PAGE_SIZE;
}

/**
 * Whether more results remain. A search's total can be a lower bound (`exact` false: more
 * match than were counted); then more remain unless fewer came than were `asked` for (a
 * search reads so many matches at most, and looks for a phrase among the newest articles
 * holding its words only).
 */
export function hasMore(
  shown: number,
  total: number,
  exact = true,
  asked = shown,
): boolean {
  return shown < total || (!exact && shown >= asked);
}

/** "1,234", or "1,000+" when the total is a lower bound. */
export function totalLabel(total: number, exact: boolean): string {
  return `${total.toLocaleString("en-US")}${exact ? "" : "+"}`;
}

export function isFiltered(query: ListingQuery): boolean {
  return query.q !== "" || query.categories.length > 0;
}

/** Identifies the result set (search + categories), ignoring how much is shown. */
export function listingKey(query: ListingQuery): string {
  return JSON.stringify([
    query.q,
    canonical(query.categories),
    query.q !== "" && query.newest,
  ]);
}

export function sameListing(a: ListingQuery, b: ListingQuery): boolean {
  return listingKey(a) === listingKey(b) && a.limit === b.limit;
}

/** Query parameters for GET /api/v1/articles; an empty category list is not sent. */
export function toApiQuery(query: ListingQuery, offset: number, limit: number) {
  return {
    q: query.q || undefined,
    category: canonical(query.categories),
    limit,
    offset,
    // A search is best match first unless asked otherwise; a listing newest first.
    sort:
      query.q && !query.newest ? ("relevance" as const) : ("newest" as const),
  };
}
