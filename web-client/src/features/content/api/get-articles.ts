import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Notify } from "@/components/toast";
import { useToast } from "@/components/toast";
import { api, ApiFailure, errorMessage } from "@/lib/api-client";
import { useQueryFailure } from "@/lib/query-client";
import { contentKeys } from "./keys";
import type { ArticleList, ArticlesQuery } from "./types";

export const EMPTY_LIST: ArticleList = {
  items: [],
  total: 0,
  published_total: 0,
};

/** GET /api/v1/articles; rejects on an error status or a network failure. */
export async function fetchArticles(
  query: ArticlesQuery,
  signal?: AbortSignal,
): Promise<ArticleList> {
  const { data, error, response } = await api.GET("/v1/articles", {
    params: { query },
    signal,
  });
  if (!data) {
    throw new ApiFailure(
      response.status,
      errorMessage(error) || `Articles request failed (${response.status})`,
    );
  }
  return data;
}

export const articlesQuery = (query: ArticlesQuery) =>
  queryOptions({
    queryKey: contentKeys.list(query),
    queryFn: ({ signal }) => fetchArticles(query, signal),
  });

export const HOME_QUERY: ArticlesQuery = {
  sort: "featured",
  limit: 3,
  category: [],
};

/** Home's "From Our Writers": up to 3 articles, featured first. */
export const homeArticlesQuery = () => articlesQuery(HOME_QUERY);

/** Spec §8: "Error" / "Failed to load articles"; the list stays empty. */
export function reportLoadFailure(notify: Notify, cause: unknown): void {
  console.error("Failed to load articles", cause);
  notify({
    title: "Error",
    description: "Failed to load articles",
    variant: "destructive",
  });
}

/**
 * What a list query shows: its data, `null` while it loads, and the empty
 * list once it has failed for good (spec §8).
 */
export function shownList(result: {
  data: ArticleList | undefined;
  isError: boolean;
  isFetching: boolean;
}): ArticleList | null {
  if (result.data) return result.data;
  return result.isError && !result.isFetching ? EMPTY_LIST : null;
}

/**
 * Home's "From Our Writers", from the cache (where the server's list is put
 * before the first render) or fetched; `null` while loading.
 */
export function useHomeArticles(): ArticleList | null {
  const notify = useToast();
  const query = homeArticlesQuery();
  const result = useQuery(query);
  useQueryFailure(query.queryKey, (cause) => reportLoadFailure(notify, cause));
  return shownList(result);
}
