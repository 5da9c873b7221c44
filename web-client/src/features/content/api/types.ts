import type { components, paths } from "@/api/schema";

// Aliases of the generated contract types; nothing here is written by hand.
export type ArticleSummary = components["schemas"]["ArticleCard"];
export type ArticleList = components["schemas"]["ArticleList"];
export type Article = components["schemas"]["Article"];
export type ArticlesQuery = NonNullable<
  paths["/v1/articles"]["get"]["parameters"]["query"]
>;

/** Outcome of loading one article: the article, a 404, or a failed request. */
export type ArticleResult =
  | { kind: "found"; article: Article }
  | { kind: "not_found" }
  | { kind: "failed" };
