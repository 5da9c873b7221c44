import { Link } from "wouter";
import { Badge } from "@/components/Badge";
import { ButtonLink } from "@/components/Button";
import { CoverImage } from "@/components/CoverImage";
import { LoadingSection } from "@/components/LoadingSection";
import { LoadFailed } from "./LoadFailed";
import { FeatureGrid } from "@/components/FeatureGrid";
import { PageHero } from "@/components/PageHero";
import { Section } from "@/components/Section";
import { useDocumentTitle } from "@/lib/document-title";
import { NotifyButton } from "./NotifyButton";
import { PAGE_TITLES } from "@/lib/pages.gen";
import {
  issueMonth,
  issuesQuery,
  type MagazineIssue,
} from "@/features/outreach/magazine";
import { useQuery } from "@/lib/use-query";

const FEATURES = [
  {
    title: "In-Depth Analysis",
    text: "Long-form essays that go beyond the headlines to explain the forces behind world events.",
  },
  {
    title: "Visual Storytelling",
    text: "Photo essays, maps and infographics designed by our student artists and designers.",
  },
  {
    title: "Global Perspectives",
    text: "Voices from young writers on every continent, side by side in one issue each month.",
  },
];

/**
 * `/magazine`: the spec's launch page until the first issue is published;
 * then the latest issue, prominently, and the archive of earlier ones.
 */
export function MagazinePage() {
  useDocumentTitle(PAGE_TITLES["/magazine"]);
  const { data, isError, isFetching, refetch } = useQuery(issuesQuery());
  if (data && data.length > 0) return <Issues issues={data} />;
  if (data === undefined && isError) {
    return (
      <LoadFailed
        title="Magazine"
        message="Failed to load the magazine issues."
        retrying={isFetching}
        onRetry={() => void refetch()}
      />
    );
  }
  if (data === undefined) return <LoadingSection title="Magazine" />;
  return <Launch />;
}

function Launch() {
  return (
    <>
      <PageHero
        title="Magazine"
        eyebrow={<Badge tone="gold">Coming Soon</Badge>}
        lead="Our monthly digital magazine collects the best student writing, art and analysis into one beautifully designed issue."
      />
      <Section
        id="magazine-launch"
        title="Launching this December"
        intro="Each issue will be free to read online and to download as a PDF."
      >
        <FeatureGrid items={FEATURES} />
        <div className="section-actions">
          <NotifyButton list="magazine" />
        </div>
      </Section>
    </>
  );
}

function Issues({ issues }: { issues: MagazineIssue[] }) {
  const [latest, ...earlier] = issues;
  if (!latest) return null;
  return (
    <>
      <section className="hero magazine-hero">
        <div className="container magazine-latest">
          <CoverImage
            className="magazine-cover"
            src={latest.cover_url}
            alt={`Cover of ${latest.title}`}
            width={360}
            height={480}
            sizes="(min-width: 760px) 360px, 55vw"
            eager
          />
          <div>
            <p className="hero-eyebrow">
              <Badge tone="gold">Latest issue</Badge>
            </p>
            <h1 className="hero-title">{latest.title}</h1>
            <p className="magazine-date">{issueMonth(latest.issue_date)}</p>
            <p className="hero-lead">{latest.description}</p>
            <div className="hero-actions">
              <ButtonLink href={`/magazine/${latest.slug}`} size="lg">
                Read the issue
              </ButtonLink>
              <NotifyButton
                list="magazine"
                label="Email Me New Issues"
                promise="Leave your email and we will tell you when each new issue is out."
              />
            </div>
          </div>
        </div>
      </section>
      {earlier.length > 0 && (
        <Section
          id="magazine-archive"
          title="Earlier issues"
          intro="Every issue stays free to read online and to download."
        >
          <ul className="magazine-archive">
            {earlier.map((issue) => (
              <li key={issue.slug}>
                <Link
                  href={`/magazine/${issue.slug}`}
                  className="magazine-card"
                >
                  <CoverImage
                    src={issue.cover_url}
                    alt=""
                    width={240}
                    height={320}
                    sizes="(min-width: 760px) 200px, 50vw"
                  />
                  <span className="magazine-card-title">{issue.title}</span>
                  <span className="magazine-date">
                    {issueMonth(issue.issue_date)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}
