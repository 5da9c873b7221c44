import { ButtonLink } from "@/components/Button";
import { FeatureGrid } from "@/components/FeatureGrid";
import { PageHero } from "@/components/PageHero";
import { Section } from "@/components/Section";
import { useDocumentTitle } from "@/lib/document-title";
import { useSite } from "@/lib/site";
import { ROLES } from "@/features/outreach/roles";
import { RoleCard } from "./RoleCard";
import { PAGE_TITLES } from "@/lib/pages.gen";

const BENEFITS = [
  {
    title: "Get Published",
    text: "See your name on articles read by students and teachers around the world.",
  },
  {
    title: "Build Real Skills",
    text: "Learn research, writing, editing and design from experienced student mentors.",
  },
  {
    title: "Join a Global Network",
    text: "Work with young people from dozens of countries and 15+ time zones.",
  },
  {
    title: "Strengthen Your Applications",
    text: "Gain experience and references that stand out to universities and programmes.",
  },
];

const STEPS = [
  {
    title: "Choose Your Role",
    text: "Pick one or more of the eight roles that match your interests and skills.",
  },
  {
    title: "Submit Your Application",
    text: "Tell us about yourself and share samples or a portfolio where the role asks for one.",
  },
  {
    title: "Skills Assessment",
    text: "Complete a short task so we can see your work and find the right fit.",
  },
  {
    title: "Welcome & Onboarding",
    text: "Meet your team, learn our guidelines and start on your first project.",
  },
];

export function ContributorsPage() {
  const { name } = useSite();
  useDocumentTitle(PAGE_TITLES["/contributors"]);
  return (
    <>
      <PageHero
        title="Join Our Team of Young Voices"
        eyebrow="Contributors"
        lead={`${name} is written, edited and designed entirely by students aged 14-18. Bring your voice, your skills and your curiosity.`}
      >
        <ButtonLink href="/application" variant="inverse" size="lg">
          Apply Now
        </ButtonLink>
      </PageHero>
      <Section id="why-join" title={`Why Join ${name}?`}>
        <FeatureGrid items={BENEFITS} columns={4} />
      </Section>
      <Section
        id="roles"
        title="Contributor Roles"
        intro="Eight ways to get involved. You can apply for more than one."
        tone="muted"
      >
        <ul className="role-grid">
          {ROLES.map((role) => (
            <li key={role.id}>
              <RoleCard role={role} />
            </li>
          ))}
        </ul>
      </Section>
      <Section id="how-to-apply" title="How to Apply">
        <FeatureGrid items={STEPS} columns={4} numbered />
      </Section>
      <Section id="apply" title="Ready to make your voice heard?" tone="muted">
        <div className="section-actions">
          <ButtonLink href="/application" size="lg">
            Start Your Application
          </ButtonLink>
        </div>
      </Section>
    </>
  );
}
