import type { components, paths } from "@/api/schema";

// Aliases of the generated contract types; nothing here is written by hand.
export type ArticleSummary = components["schemas"]["ArticleCard"];
export type ArticleList = components["schemas"]["ArticleList"];
export type Article = components["schemas"]["Article"];
export type ArticlesQuery = NonNullable<
  paths["/v1/articles"]["get"]["parameters"]["query"]
>;

/**
 * An article as readers' pages use it: the API's article, or the copy a page
 * carries, which leaves out the markdown source (only the HTML is shown).
 */
export type ReaderArticle = Omit<Article, "content">;

/** Outcome of loading one article: the article, a 404, or a failed request. */
export type ArticleResult =
  | { kind: "found"; article: ReaderArticle }
  | { kind: "not_found" }
  | { kind: "failed" };
