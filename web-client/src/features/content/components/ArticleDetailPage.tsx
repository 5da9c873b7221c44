import { ButtonLink } from "@/components/Button";
import { useDocumentTitle } from "@/lib/document-title";
import { useArticle } from "@/features/content/api/get-article";
import { SAMPLE_ARTICLE } from "@/features/content/sample-article";
import { useRelated } from "@/features/content/api/get-related";
import { ArticleFooter } from "./ArticleFooter";
import { ArticleResponses } from "./ArticleResponses";
import { ArticleView } from "./ArticleView";
import { LostReaderHelp } from "./LostReaderHelp";

export function ArticleDetailPage({ slug }: { slug: string }) {
  const result = useArticle(slug);
  const related = useRelated(slug, result?.kind === "found");
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
      <div className="section">
        <div className="container center-block">
          <h1 className="page-title">Article not found</h1>
          <p>
            The article you are looking for may have been moved or unpublished.
          </p>
          <ButtonLink href="/">Return to Home</ButtonLink>
        </div>
        <div className="container">
          <LostReaderHelp />
        </div>
      </div>
    );
  }
  return (
    <>
      <ArticleView article={article} />
      {result.kind === "found" ? (
        <>
          <ArticleResponses slug={article.slug} title={article.title} />
          <ArticleFooter article={article} related={related} />
        </>
      ) : null}
    </>
  );
}
