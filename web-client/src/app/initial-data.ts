import type { QueryClient } from "@tanstack/react-query";
import {
  articleQuery,
  homeArticlesQuery,
  newestArticlesQuery,
  listingQuery,
  relatedQuery,
  normaliseListingQuery,
  parseListingQuery,
  sameListing,
  type ArticleList,
  type ArticleResult,
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
import { ACCOUNT_KEY, servedAccount } from "@/lib/reader";
import type { PageData } from "./page-data";

/** Server-provided data that answers the route currently shown. */
export interface InitialData {
  home?: ArticleList;
  list?: ArticleList;
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
  if (pathname === "/") return { home: data.home };
  if (pathname === "/articles") {
    const served = data.list_query;
    if (!data.list || !served) return {};
    const current = parseListingQuery(search);
    return sameListing(current, normaliseListingQuery(served))
      ? { list: data.list }
      : {};
  }
  if (pathname.startsWith("/article/")) {
    if (data.article)
      return { article: { kind: "found", article: data.article } };
    if (data.status === 404) return { article: { kind: "not_found" } };
  }
  return {};
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
    queryClient.setQueryData(homeArticlesQuery().queryKey, initial.home);
  }
  if (initial.list) {
    const query = listingQuery(parseListingQuery(search));
    queryClient.setQueryData(query.queryKey, initial.list);
  }
  const slug = ARTICLE_PATH.exec(path)?.[1];
  if (initial.article && slug !== undefined) {
    queryClient.setQueryData(articleQuery(slug).queryKey, initial.article);
    if (data.related) {
      queryClient.setQueryData(relatedQuery(slug).queryKey, data.related);
    }
  }
  const served = decode(splitUrl(data.path).pathname) === path;
  if (data.newest && served && data.status === 404) {
    queryClient.setQueryData(newestArticlesQuery().queryKey, data.newest);
  }
  if (data.landing && served) {
    queryClient.setQueryData(emailLandingKey(path), data.landing);
  }
  if (served && path === "/account") {
    queryClient.setQueryData(ACCOUNT_KEY, servedAccount(data.account));
  }
  if (data.form && served) {
    queryClient.setQueryData(formAnswerKey(path), data.form);
  }
  if (data.packs && served && path === "/educational-packs") {
    queryClient.setQueryData(packsQuery().queryKey, data.packs);
  }
  if (data.issues && served && path === "/magazine") {
    queryClient.setQueryData(issuesQuery().queryKey, data.issues);
  }
  const issueSlug = ISSUE_PATH.exec(path)?.[1];
  if (served && issueSlug !== undefined) {
    const result: IssueResult | undefined = data.issue
      ? { kind: "found", issue: data.issue }
      : data.status === 404
        ? { kind: "not_found" }
        : undefined;
    if (result)
      queryClient.setQueryData(issueQuery(issueSlug).queryKey, result);
  }
}
