import { Link, useParams } from "wouter";
import { ButtonLink } from "@/components/Button";
import { CoverImage } from "@/components/CoverImage";
import { LoadingSection } from "@/components/LoadingSection";
import { LoadFailed } from "./LoadFailed";
import { useDocumentTitle } from "@/lib/document-title";
import { fileSize, issueMonth, issueQuery } from "@/features/outreach/magazine";
import { useQuery } from "@/lib/use-query";

/**
 * `/magazine/{slug}`: one published issue — its cover, date and description,
 * the PDF to read in the browser (served inline) and to download.
 */
export function MagazineIssuePage() {
  const { slug = "" } = useParams<{ slug: string }>();
  const { data, isError, isFetching, refetch } = useQuery(issueQuery(slug));
  const title =
    data?.kind === "found"
      ? data.issue.title
      : data?.kind === "not_found"
        ? "Issue not found"
        : "Magazine";
  useDocumentTitle(title);

  if (data === undefined) {
    if (!isError) return <LoadingSection title="Magazine" />;
    return (
      <LoadFailed
        title="Magazine"
        message="Failed to load this issue."
        retrying={isFetching}
        onRetry={() => void refetch()}
      />
    );
  }
  if (data.kind === "not_found") {
    return (
      <div className="section">
        <div className="container center-block">
          <h1 className="page-title">Issue not found</h1>
          <p>This issue does not exist, or it is not published.</p>
          <ButtonLink href="/magazine">See every issue</ButtonLink>
        </div>
      </div>
    );
  }
  const { issue } = data;
  return (
    <div className="section">
      <div className="container magazine-issue">
        <p className="magazine-back">
          <Link href="/magazine">← All issues</Link>
        </p>
        <div className="magazine-latest">
          <CoverImage
            className="magazine-cover"
            src={issue.cover_url}
            alt={`Cover of ${issue.title}`}
            width={360}
            height={480}
            sizes="(min-width: 760px) 360px, 55vw"
            eager
          />
          <div>
            <h1 className="page-title">{issue.title}</h1>
            <p className="magazine-date">{issueMonth(issue.issue_date)}</p>
            <p className="magazine-description">{issue.description}</p>
            <div className="hero-actions">
              <a className="btn btn-primary btn-lg" href={issue.file_url}>
                Read the issue
              </a>
              <a
                className="btn btn-secondary btn-lg"
                href={issue.file_url}
                download={`${issue.slug}.pdf`}
              >
                Download PDF ({fileSize(issue.size_bytes)})
              </a>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
