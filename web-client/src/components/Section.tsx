import type { ReactNode } from "react";

interface SectionProps {
  title?: ReactNode;
  intro?: ReactNode;
  id?: string;
  tone?: "plain" | "muted";
  children: ReactNode;
}

/** A page section with an optional <h2> heading labelling it. */
export function Section({
  title,
  intro,
  id,
  tone = "plain",
  children,
}: SectionProps) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section
      className={`section section-${tone}`}
      id={id}
      aria-labelledby={title && headingId ? headingId : undefined}
    >
      <div className="container">
        {title ? (
          <header className="section-head">
            <h2 id={headingId} className="section-title">
              {title}
            </h2>
            {intro ? <p className="section-intro">{intro}</p> : null}
          </header>
        ) : null}
        {children}
      </div>
    </section>
  );
}
