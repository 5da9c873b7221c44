import {
  normaliseListingQuery,
  parseListingQuery,
  sameListing,
  type ArticleList,
  type ArticleResult,
} from "@/features/content";
import { splitUrl } from "@/lib/query-string";
import type { PageData } from "./page-data";

/** Server-provided data that answers the route currently shown. */
export interface InitialData {
  home?: ArticleList;
  list?: ArticleList;
  article?: ArticleResult;
}

const decode = (path: string) => {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
};

/**
 * Picks the parts of the page data that match `pathname` (decoded, as wouter
 * reports it) and `search`. After in-app navigation elsewhere nothing matches
 * and pages fetch from the API instead.
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
