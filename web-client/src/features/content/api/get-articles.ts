import { queryOptions } from "@tanstack/react-query";
import type { Notify } from "@/components/toast";
import { useToast } from "@/components/toast";
import { api, ApiFailure, errorMessage } from "@/lib/api-client";
import { useQueryFailure } from "@/lib/query-client";
import { contentKeys } from "./keys";
import type { ArticleList, ArticlesQuery } from "./types";
import { useQuery } from "@/lib/use-query";

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

export const NEWEST_QUERY: ArticlesQuery = {
  sort: "newest",
  limit: 3,
  category: [],
};

/** What a page that is not there offers instead: the 3 newest articles. */
export const newestArticlesQuery = () => articlesQuery(NEWEST_QUERY);

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
 * What a list query shows: its data, `null` while it loads (or retries), and
 * `failed` once it has failed — never an empty list, which would say nothing
 * was published.
 */
export interface ShownList {
  list: ArticleList | null;
  failed: boolean;
  /** Asks again (the Retry button). */
  retry: () => void;
}

export function shownList(result: {
  data: ArticleList | undefined;
  isError: boolean;
  isFetching: boolean;
  refetch: () => Promise<unknown>;
}): ShownList {
  const failed = !result.data && result.isError && !result.isFetching;
  return {
    list: result.data ?? null,
    failed,
    retry: () => void result.refetch(),
  };
}

/**
 * Home's "From Our Writers", from the cache (where the server's list is put
 * before the first render) or fetched; `null` while loading.
 */
export function useHomeArticles(): ShownList {
  const notify = useToast();
  const query = homeArticlesQuery();
  const result = useQuery(query);
  useQueryFailure(query.queryKey, (cause) => reportLoadFailure(notify, cause));
  return shownList(result);
}

/** The 3 newest articles, from the cache (a 404 page's data) or fetched. */
export function useNewestArticles(): ShownList {
  return shownList(useQuery(newestArticlesQuery()));
}
