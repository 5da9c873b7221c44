import type { ArticleSummary } from "@/features/content/api/types";
import { ArticleCard } from "./ArticleCard";

/** Cards in a 1–3 column grid; the first row's covers load eagerly. */
export function ArticleGrid({ items }: { items: readonly ArticleSummary[] }) {
  return (
    <ul className="card-grid">
      {items.map((article, index) => (
        <li key={article.id}>
          <ArticleCard article={article} eager={index < 3} />
        </li>
      ))}
    </ul>
  );
}
