import { ButtonLink } from "@/components/Button";
import { useSite } from "@/lib/site";

export function HomeHero() {
  const { name } = useSite();
  return (
    <section className="hero hero-home">
      <div className="container hero-inner">
        <p className="hero-eyebrow">{name} · A youth-run publication</p>
        <h1 className="hero-title">
          Empowering Young Voices in Global Politics
        </h1>
        <p className="hero-lead">
          High school students from around the world write about the issues
          shaping their future — from climate justice to digital democracy. Read
          them, question them, and add your own voice.
        </p>
        <div className="hero-actions">
          <ButtonLink href="/articles" variant="inverse" size="lg">
            Read Latest Articles
          </ButtonLink>
          <ButtonLink href="/contributors" variant="ghost" size="lg">
            Become a Contributor
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
