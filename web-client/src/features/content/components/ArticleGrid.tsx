import type { ArticleSummary } from "@/features/content/api/types";
import { ArticleCard } from "./ArticleCard";

/**
 * Cards in a 1–3 column grid, below the home page's hero: their covers load lazily, so they
 * never compete with what a phone shows first.
 */
export function ArticleGrid({ items }: { items: readonly ArticleSummary[] }) {
  return (
    <ul className="card-grid">
      {items.map((article) => (
        <li key={article.id}>
          <ArticleCard article={article} />
        </li>
      ))}
    </ul>
  );
}
