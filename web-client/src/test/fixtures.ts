import type { components } from "@/api/schema";

type ArticleCard = components["schemas"]["ArticleCard"];
type Article = components["schemas"]["Article"];

export function card(overrides: Partial<ArticleCard> = {}): ArticleCard {
  return {
    id: "0192d7a4-0000-7000-8000-000000000001",
    slug: "voting-at-sixteen",
    title: "Should Sixteen-Year-Olds Vote?",
    excerpt: "Several countries already let sixteen-year-olds vote.",
    category: "Youth Activism",
    featured: false,
    author_name: "Maya Chen",
    created_at: "2026-11-22T03:06:00Z",
    updated_at: "2026-11-22T03:06:00Z",
    read_time: "4 min",
    ...overrides,
  };
}

export function article(overrides: Partial<Article> = {}): Article {
  return {
    ...card(),
    content: "Several countries already let sixteen-year-olds vote.",
    content_html:
      "<p>Several countries already let sixteen-year-olds vote.</p>",
    description: "Several countries already let sixteen-year-olds vote.",
    ...overrides,
  };
}

/** An article as a page's data carries it: without its body, which the markup has. */
export function articleOnPage(
  overrides: Partial<Article> = {},
): Omit<Article, "content" | "content_html"> {
  return {
    ...card(),
    description: "Several countries already let sixteen-year-olds vote.",
    ...overrides,
  };
}
