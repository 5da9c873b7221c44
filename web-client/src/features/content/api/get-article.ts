import { queryOptions } from "@tanstack/react-query";
import { api, ApiFailure, errorMessage } from "@/lib/api-client";
import { useQueryFailure } from "@/lib/query-client";
import { contentKeys } from "./keys";
import type { ArticleResult } from "./types";
import { useQuery } from "@/lib/use-query";

/**
 * GET /api/v1/articles/{slug_or_id}: a 404 (or other 4xx) is "not found", an
 * answer; a 5xx or a network error throws, so that the query tries again.
 */
export async function fetchArticle(
  slug: string,
  signal?: AbortSignal,
): Promise<ArticleResult> {
  const { data, error, response } = await api.GET("/v1/articles/{slug_or_id}", {
    params: { path: { slug_or_id: slug } },
    signal,
  });
  if (data) return { kind: "found", article: data };
  if (response.status >= 400 && response.status < 500)
    return { kind: "not_found" };
  throw new ApiFailure(
    response.status,
    errorMessage(error) || `Article request failed (${response.status})`,
  );
}

export const articleQuery = (slug: string) =>
  queryOptions({
    queryKey: contentKeys.article(slug),
    queryFn: ({ signal }) => fetchArticle(slug, signal),
  });

/**
 * The article for `slug`, from the cache (where the server's copy is put
 * before the first render) or fetched; `null` while loading. A request that
 * fails for good is "failed".
 */
export function useArticle(slug: string): ArticleResult | null {
  const { data, isError, isFetching } = useQuery(articleQuery(slug));
  useQueryFailure(contentKeys.article(slug), (cause) =>
    console.error("Article request failed", cause),
  );
  if (data) return data;
  return isError && !isFetching ? { kind: "failed" } : null;
}
