import { Badge } from "@/components/Badge";
import { FeatureGrid } from "@/components/FeatureGrid";
import { PageHero } from "@/components/PageHero";
import { Section } from "@/components/Section";
import { useDocumentTitle } from "@/lib/document-title";
import { NotifyButton } from "./NotifyButton";
import { PAGE_TITLES } from "@/lib/pages.gen";

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

export function MagazinePage() {
  useDocumentTitle(PAGE_TITLES["/magazine"]);
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
