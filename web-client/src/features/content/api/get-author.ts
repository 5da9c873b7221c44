import { queryOptions } from "@tanstack/react-query";
import type { components } from "@/api/schema";
import { api, ApiFailure, errorMessage } from "@/lib/api-client";
import { contentKeys } from "./keys";

export type AuthorPage = components["schemas"]["AuthorPage"];
export type Contributor = components["schemas"]["Contributor"];

/** A contributor's page, or the news that there is none at that address. */
export type AuthorResult =
  { kind: "found"; page: AuthorPage } | { kind: "not_found" };

/** The author route's pattern, "/author/:slug", as wouter matches it. */
export const AUTHOR_PATH = /^\/author\/([^/]+?)\/?$/i;

/** GET /api/v1/authors/{slug}: who the contributor is and their first `limit` pieces. */
export const authorQuery = (slug: string, limit: number) =>
  queryOptions({
    queryKey: contentKeys.author(slug, limit),
    queryFn: async ({ signal }): Promise<AuthorResult> => {
      const { data, error, response } = await api.GET("/v1/authors/{slug}", {
        params: { path: { slug }, query: { limit } },
        signal,
      });
      if (data) return { kind: "found", page: data };
      if (response.status === 404) return { kind: "not_found" };
      throw new ApiFailure(
        response.status,
        errorMessage(error) || `Author request failed (${response.status})`,
      );
    },
  });

/** The address of a contributor's page showing `limit` pieces (the default left out). */
export function authorHref(slug: string, limit: number, pageSize: number) {
  const path = `/author/${encodeURIComponent(slug)}`;
  return limit === pageSize ? path : `${path}?limit=${limit}`;
}
