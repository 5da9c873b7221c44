import type { QueryClient } from "@tanstack/react-query";
import type { ArticlesQuery } from "./types";

/**
 * Every query key of the public article data (GET /v1/articles and
 * GET /v1/articles/{slug}). Staff changes invalidate `all`.
 */
export const contentKeys = {
  all: ["content"] as const,
  /** A page of GET /v1/articles, by its exact parameters. */
  list: (query: ArticlesQuery) => ["content", "articles", query] as const,
  /** One article page, by the slug in its URL. */
  article: (slug: string) => ["content", "article", slug] as const,
  /** What follows one article: read next and the author. */
  related: (slug: string) => ["content", "related", slug] as const,
  /** The approved responses under one article, by its slug. */
  responses: (slug: string) => ["content", "responses", slug] as const,
  /** A contributor's page showing `limit` pieces. */
  author: (slug: string, limit: number) =>
    ["content", "author", slug, limit] as const,
};

/**
 * After a staff change to any article (created, edited, published, deleted):
 * every public list and article in the cache is stale, and is fetched again
 * where it is shown (now, or when next opened).
 */
export function invalidatePublicArticles(
  queryClient: QueryClient,
): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: contentKeys.all });
}
