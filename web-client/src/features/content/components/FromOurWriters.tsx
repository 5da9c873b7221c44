import { ButtonLink } from "@/components/Button";
import { Section } from "@/components/Section";
import { useHomeArticles } from "@/features/content/api/get-articles";
import { ArticleGrid } from "./ArticleGrid";
import { LoadFailedNotice } from "./LoadFailedNotice";

export function FromOurWriters() {
  const { list, failed, retry } = useHomeArticles();

  return (
    <Section
      id="from-our-writers"
      title="From Our Writers"
      intro="The latest perspectives from students around the world."
    >
      {failed ? (
        <LoadFailedNotice onRetry={retry} />
      ) : list === null ? (
        <p className="status-text" role="status">
          Loading articles...
        </p>
      ) : list.items.length === 0 ? (
        <div className="empty-state">
          <p className="empty-title">No published articles available yet</p>
          <ButtonLink href="/" native variant="secondary">
            Check Back Soon
          </ButtonLink>
        </div>
      ) : (
        <ArticleGrid items={list.items.slice(0, 3)} />
      )}
      <div className="section-actions">
        <ButtonLink href="/articles" variant="secondary">
          Read All Articles
        </ButtonLink>
      </div>
    </Section>
  );
}
