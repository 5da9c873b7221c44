import { Link } from "wouter";
import { ArrowRightIcon } from "@/components/icons";
import { Section } from "@/components/Section";
import { CATEGORY_TILES } from "@/features/content/categories";

export function ExploreByCategory() {
  return (
    <Section
      id="explore"
      title="Explore by Category"
      intro="Find the debates you care about most."
      tone="muted"
    >
      <ul className="tile-grid">
        {CATEGORY_TILES.map((tile) => (
          <li key={tile.name}>
            <Link href={tile.path} className="tile">
              <span className="tile-name">{tile.name}</span>
              <span className="tile-blurb">{tile.description}</span>
              <ArrowRightIcon className="tile-arrow" />
            </Link>
          </li>
        ))}
      </ul>
    </Section>
  );
}
