import type { ReactNode } from "react";

export interface Feature {
  title: string;
  text: ReactNode;
}

interface FeatureGridProps {
  items: readonly Feature[];
  columns?: 2 | 3 | 4;
  numbered?: boolean;
}

/** Cards of title + text (benefits, values, features); headings are <h3>. */
export function FeatureGrid({
  items,
  columns = 3,
  numbered,
}: FeatureGridProps) {
  return (
    <ul className={`feature-grid cols-${columns}`}>
      {items.map((item, index) => (
        <li key={item.title} className="feature">
          {numbered ? (
            <span className="feature-number" aria-hidden="true">
              {index + 1}
            </span>
          ) : null}
          <h3 className="feature-title">{item.title}</h3>
          <div className="feature-text">{item.text}</div>
        </li>
      ))}
    </ul>
  );
}
