import { ButtonLink } from "@/components/Button";
import { useDocumentTitle } from "@/lib/document-title";
import { useArticle } from "@/features/content/api/get-article";
import type { ArticleResult } from "@/features/content/api/types";
import { SAMPLE_ARTICLE } from "@/features/content/sample-article";
import { ArticleView } from "./ArticleView";

interface ArticleDetailPageProps {
  slug: string;
  initial?: ArticleResult;
}

export function ArticleDetailPage({ slug, initial }: ArticleDetailPageProps) {
  const result = useArticle(slug, initial);
  const article =
    result?.kind === "found"
      ? result.article
      : result?.kind === "failed"
        ? SAMPLE_ARTICLE
        : null;
  useDocumentTitle(
    result === null ? null : (article?.title ?? "Article not found"),
  );

  if (result === null) {
    return (
      <div className="container section">
        <p className="status-text" role="status">
          Loading article...
        </p>
      </div>
    );
  }
  if (article === null) {
    return (
      <div className="container section center-block">
        <h1 className="page-title">Article not found</h1>
        <p>
          The article you are looking for may have been moved or unpublished.
        </p>
        <ButtonLink href="/">Return to Home</ButtonLink>
      </div>
    );
  }
  return <ArticleView article={article} />;
}
