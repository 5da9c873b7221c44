import { Badge } from "@/components/Badge";
import { CheckIcon } from "@/components/icons";
import { PageHero } from "@/components/PageHero";
import { Section } from "@/components/Section";
import { useDocumentTitle } from "@/lib/document-title";
import { NotifyButton } from "./NotifyButton";
import { PAGE_TITLES } from "@/lib/pages.gen";

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

export function PacksPage() {
  useDocumentTitle(PAGE_TITLES["/educational-packs"]);
  return (
    <>
      <PageHero
        title="Educational Packs"
        eyebrow={<Badge tone="gold">Coming Soon</Badge>}
        lead="Classroom-ready resources that help students aged 13-18 understand the political issues shaping their world."
      />
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
    </>
  );
}
