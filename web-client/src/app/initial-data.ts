import type { QueryClient } from "@tanstack/react-query";
import {
  AUTHOR_PATH,
  articleQuery,
  authorQuery,
  categoryListing,
  categoryOfSlug,
  homeArticlesQuery,
  newestArticlesQuery,
  listingQuery,
  relatedQuery,
  responsesQuery,
  normaliseListingQuery,
  parseLimit,
  parseListingQuery,
  sameListing,
  type AuthorResult,
  type ArticleList,
  type ArticleResult,
  type ListingQuery,
} from "@/features/content";
import { emailLandingKey } from "@/features/outreach/landing";
import {
  ISSUE_PATH,
  issueQuery,
  issuesQuery,
  packsQuery,
  type IssueResult,
} from "@/features/outreach/magazine";
import { splitUrl } from "@/lib/query-string";
import { formAnswerKey } from "@/lib/form-answer";
import { seedQuery } from "@/lib/use-query";
import { servedAccount } from "@/lib/reader";
import { readerKeys } from "@/features/readers/api/keys";
import type { PageData } from "./page-data";

/** Server-provided data that answers the route currently shown. */
export interface InitialData {
  home?: ArticleList;
  list?: ArticleList;
  /** The listing `list` answers. */
  listing?: ListingQuery;
  article?: ArticleResult;
}

/** A path as wouter reports it: decoded (left as it is when it is not valid). */
export const decode = (path: string) => {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
};

/**
 * Picks the parts of the page data that match `pathname` (decoded, as wouter
 * reports it) and `search`.
 */
export function initialDataFor(
  data: PageData,
  pathname: string,
  search: string,
): InitialData {
  if (decode(splitUrl(data.path).pathname) !== pathname) return {};
  switch (data.kind) {
    case "home":
      return { home: data.home };
    case "articles":
    case "category": {
      if (!data.list) return {};
      const current = listingShownAt(pathname, search);
      return current &&
        sameListing(current, normaliseListingQuery(data.list_query))
        ? { list: data.list, listing: current }
        : {};
    }
    case "article": {
      // Without its body (`withArticleBody` found none), the page loads it.
      const { content_html } = data.article;
      return content_html === undefined
        ? {}
        : {
            article: {
              kind: "found",
              article: { ...data.article, content_html },
            },
          };
    }
    case "not_found":
      return pathname.startsWith("/article/")
        ? { article: { kind: "not_found" } }
        : {};
    default:
      return {};
  }
}

/** The category route's pattern, "/category/:slug", as wouter matches it. */
const CATEGORY_PATH = /^\/category\/([^/]+?)\/?$/i;

/** The listing a page at `pathname` and `search` shows, if it shows one. */
function listingShownAt(
  pathname: string,
  search: string,
): ListingQuery | undefined {
  if (/^\/articles\/?$/i.test(pathname)) return parseListingQuery(search);
  const slug = CATEGORY_PATH.exec(pathname)?.[1];
  const category = slug === undefined ? undefined : categoryOfSlug(slug);
  return category ? categoryListing(category.name, search) : undefined;
}

/** The article route's pattern, "/article/:slug", as wouter matches it. */
export const ARTICLE_PATH = /^\/article\/([^/]+?)\/?$/i;

/**
 * Puts the server's data for the page at `pathname` and `search` (of the
 * rendered request, or of the browser's address bar) into the query cache,
 * under the keys the pages read, before the first render. The browser's first
 * render then matches the server's HTML and fetches nothing for it again;
 * after in-app navigation elsewhere, pages fetch from the API instead.
 */
export function seedQueryCache(
  queryClient: QueryClient,
  data: PageData,
  pathname: string,
  search: string,
): void {
  const path = decode(pathname);
  const initial = initialDataFor(data, path, search);
  if (initial.home) {
    seedQuery(queryClient, homeArticlesQuery().queryKey, initial.home);
  }
  if (initial.list && initial.listing) {
    const query = listingQuery(initial.listing);
    seedQuery(queryClient, query.queryKey, initial.list);
  }
  // The rest answers only the page the server rendered.
  if (decode(splitUrl(data.path).pathname) !== path) return;
  const slug = ARTICLE_PATH.exec(path)?.[1];
  if (initial.article && slug !== undefined) {
    seedQuery(queryClient, articleQuery(slug).queryKey, initial.article);
    if (data.kind === "article") {
      seedQuery(queryClient, relatedQuery(slug).queryKey, data.related);
      if (data.responses) {
        seedQuery(queryClient, responsesQuery(slug).queryKey, data.responses);
      }
    }
  }
  if (data.form) {
    seedQuery(queryClient, formAnswerKey(path), data.form);
  }
  const issueSlug = ISSUE_PATH.exec(path)?.[1];
  const authorSlug = AUTHOR_PATH.exec(path)?.[1];
  const authorLimit = parseLimit(new URLSearchParams(search).get("limit"));
  switch (data.kind) {
    case "author":
      if (
        authorSlug !== undefined &&
        data.list &&
        data.list_query.limit === authorLimit
      ) {
        const found: AuthorResult = {
          kind: "found",
          page: { author: data.author, articles: data.list },
        };
        seedQuery(
          queryClient,
          authorQuery(authorSlug, authorLimit).queryKey,
          found,
        );
      }
      break;
    case "not_found":
      if (authorSlug !== undefined) {
        const gone: AuthorResult = { kind: "not_found" };
        seedQuery(
          queryClient,
          authorQuery(authorSlug, authorLimit).queryKey,
          gone,
        );
      }
      if (data.newest) {
        seedQuery(queryClient, newestArticlesQuery().queryKey, data.newest);
      }
      if (issueSlug !== undefined) {
        const gone: IssueResult = { kind: "not_found" };
        seedQuery(queryClient, issueQuery(issueSlug).queryKey, gone);
      }
      break;
    case "landing":
      seedQuery(queryClient, emailLandingKey(path), data.landing);
      break;
    case "account":
      seedQuery(queryClient, readerKeys.account, servedAccount(data.account));
      if (data.responses) {
        seedQuery(queryClient, readerKeys.responses, {
          ok: true,
          data: data.responses,
        });
      }
      break;
    case "packs":
      seedQuery(queryClient, packsQuery().queryKey, data.packs);
      break;
    case "magazine":
      seedQuery(queryClient, issuesQuery().queryKey, data.issues);
      break;
    case "issue":
      if (issueSlug !== undefined) {
        const found: IssueResult = { kind: "found", issue: data.issue };
        seedQuery(queryClient, issueQuery(issueSlug).queryKey, found);
      }
      break;
    default:
      break;
  }
}
