import { queryOptions } from "@tanstack/react-query";
import type { components } from "@/api/schema";
import { api, ApiFailure, errorMessage } from "@/lib/api-client";
import { contentKeys } from "./keys";
import { useQuery } from "@/lib/use-query";

export type Related = components["schemas"]["Related"];
export type AuthorBox = components["schemas"]["AuthorBox"];

/** GET /api/v1/articles/{slug}/related; rejects on an error status. */
export async function fetchRelated(
  slug: string,
  signal?: AbortSignal,
): Promise<Related> {
  const { data, error, response } = await api.GET(
    "/v1/articles/{slug_or_id}/related",
    { params: { path: { slug_or_id: slug } }, signal },
  );
  if (data) return data;
  throw new ApiFailure(
    response.status,
    errorMessage(error) || `Related request failed (${response.status})`,
  );
}

export const relatedQuery = (slug: string) =>
  queryOptions({
    queryKey: contentKeys.related(slug),
    queryFn: ({ signal }) => fetchRelated(slug, signal),
  });

/**
 * What follows the article at `slug` (once it is known to exist: `enabled`),
 * from the cache (the server's copy) or fetched; `null` while loading or when
 * it could not be loaded (the article itself is what matters, so nothing more
 * is said).
 */
export function useRelated(slug: string, enabled: boolean): Related | null {
  const { data } = useQuery({ ...relatedQuery(slug), enabled });
  return data ?? null;
}
