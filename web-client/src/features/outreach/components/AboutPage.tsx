import { FeatureGrid } from "@/components/FeatureGrid";
import { PageHero } from "@/components/PageHero";
import { Section } from "@/components/Section";
import { useDocumentTitle } from "@/lib/document-title";
import { useSite } from "@/lib/site";
import { TEAM } from "@/features/outreach/team";
import { PAGE_TITLES } from "@/lib/pages.gen";

const VALUES = [
  {
    title: "Global Perspective",
    text: "We publish writers from every region so readers see each issue from more than one side of the map.",
  },
  {
    title: "Youth Leadership",
    text: "Students run everything here — writing, editing, research, design and outreach.",
  },
  {
    title: "Educational Excellence",
    text: "Every article is researched, fact-checked and edited to a standard teachers can trust.",
  },
  {
    title: "Inclusive Community",
    text: "Everyone is welcome, whatever their background, views or experience with politics.",
  },
];

const initials = (name: string) =>
  name
    .split(" ")
    .map((part) => part[0])
    .join("")
    .slice(0, 2);

export function AboutPage() {
  const { name } = useSite();
  useDocumentTitle(PAGE_TITLES["/about"]);
  return (
    <>
      <PageHero
        title={`About ${name}`}
        lead="A youth-run publication where high school students explore, explain and debate global politics."
      />
      <Section id="mission" title="Our Mission">
        <div className="narrow prose-lite">
          <p>
            Young people are affected by every political decision, yet they are
            rarely asked what they think. {name} exists to change that: we give
            students aged 14-18 a place to research, write and publish
            thoughtful work about the world, and we help classrooms use that
            work to spark better conversations.
          </p>
          <p>
            We believe that understanding politics is a skill anyone can learn,
            and that the best way to learn it is to take part.
          </p>
        </div>
      </Section>
      <Section id="values" title="Our Values" tone="muted">
        <FeatureGrid items={VALUES} columns={4} />
      </Section>
      <Section
        id="team"
        title="Meet the Team"
        intro="The students who keep the lights on."
      >
        <ul className="team-grid">
          {TEAM.map((member) => (
            <li key={member.name} className="team-card">
              <span className="avatar" aria-hidden="true">
                {initials(member.name)}
              </span>
              <h3 className="feature-title">{member.name}</h3>
              <p className="team-role">{member.role}</p>
              <p className="team-location">{member.location}</p>
              <p>{member.bio}</p>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
