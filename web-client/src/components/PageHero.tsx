import type { ReactNode } from "react";

interface PageHeroProps {
  title: ReactNode;
  /** A picture above the title (a contributor's photo). */
  figure?: ReactNode;
  eyebrow?: ReactNode;
  lead?: ReactNode;
  children?: ReactNode;
}

/** The banner at the top of a page; holds the page's single <h1>. */
export function PageHero({
  title,
  figure,
  eyebrow,
  lead,
  children,
}: PageHeroProps) {
  return (
    <section className="hero">
      <div className="container hero-inner">
        {figure}
        {eyebrow ? <div className="hero-eyebrow">{eyebrow}</div> : null}
        <h1 className="hero-title">{title}</h1>
        {lead ? <p className="hero-lead">{lead}</p> : null}
        {children ? <div className="hero-actions">{children}</div> : null}
      </div>
    </section>
  );
}
