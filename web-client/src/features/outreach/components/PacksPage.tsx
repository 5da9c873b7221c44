import { Badge } from "@/components/Badge";
import { LoadingSection } from "@/components/LoadingSection";
import { CheckIcon } from "@/components/icons";
import { PageHero } from "@/components/PageHero";
import { Section } from "@/components/Section";
import { useDocumentTitle } from "@/lib/document-title";
import { NotifyButton } from "./NotifyButton";
import { PAGE_TITLES } from "@/lib/pages.gen";
import { fileSize, packsQuery, type Packs } from "@/features/outreach/magazine";
import { LoadFailed } from "./LoadFailed";
import { useQuery } from "@/lib/use-query";

const INCLUDED = [
  "A central theme on key political topics",
  "4 visually designed explanation pages",
  "Glossary of key terms",
  "Infographic or map",
  "Mini comprehension activities",
  "Multimedia recommendation (video, podcast or documentary)",
  "English and Spanish versions",
  "Teacher's guide",
  "Organised by learning level",
];

/**
 * `/educational-packs`: the spec's launch page until the packs launch; then
 * the three packs to download, served from storage.
 */
export function PacksPage() {
  useDocumentTitle(PAGE_TITLES["/educational-packs"]);
  const { data, isError, isFetching, refetch } = useQuery(packsQuery());
  if (data === undefined) {
    return isError ? (
      <LoadFailed
        title="Educational Packs"
        message="Failed to load the educational packs."
        retrying={isFetching}
        onRetry={() => void refetch()}
      />
    ) : (
      <LoadingSection title="Educational Packs" />
    );
  }
  const launched = data.launched_at != null;
  return (
    <>
      <PageHero
        title="Educational Packs"
        eyebrow={
          <Badge tone="gold">
            {launched ? "Now available" : "Coming Soon"}
          </Badge>
        }
        lead="Classroom-ready resources that help students aged 13-18 understand the political issues shaping their world."
      />
      {launched && <Downloads packs={data} />}
      <Section
        id="included"
        title="What's Included"
        intro="Every pack is built around one topic and ready to use in a single lesson or across a week."
      >
        <ul className="check-list">
          {INCLUDED.map((item) => (
            <li key={item}>
              <CheckIcon className="check-icon" />
              {item}
            </li>
          ))}
        </ul>
      </Section>
      {!launched && (
        <Section id="packs-launch" title="Launching this January" tone="muted">
          <div className="callout">
            <h3 className="feature-title">Flexible pricing for educators</h3>
            <p>
              We want every classroom to have access. Packs will be offered with
              flexible pricing for teachers, schools and non-profit programmes,
              including free options for schools with limited budgets.
            </p>
          </div>
          <div className="section-actions">
            <NotifyButton list="packs" />
          </div>
        </Section>
      )}
    </>
  );
}

function Downloads({ packs }: { packs: Packs }) {
  return (
    <Section
      id="packs-download"
      title="Download the packs"
      intro="Each pack is a PDF with its explanation pages, activities and teacher's guide."
    >
      <ul className="pack-downloads">
        {packs.packs.map((pack) => (
          <li key={pack.id} className="feature">
            <h3 className="feature-title">{pack.title}</h3>
            <p className="feature-text">{pack.level}</p>
            {pack.file_url ? (
              <a
                className="btn btn-primary"
                href={pack.file_url}
                download={`${pack.id}.pdf`}
              >
                Download
                <span className="sr-only"> {pack.title}</span>
                {pack.size_bytes != null
                  ? ` (${fileSize(pack.size_bytes)})`
                  : ""}
              </a>
            ) : null}
          </li>
        ))}
      </ul>
    </Section>
  );
}
