/** A row of figures, each a big value over its label. */
export function StatCards({
  cards,
  className,
}: {
  cards: readonly { label: string; value: string }[];
  className?: string;
}) {
  return (
    <ul className={["stat-grid", className].filter(Boolean).join(" ")}>
      {cards.map((card) => (
        <li key={card.label} className="stat-card">
          <span className="stat-value">{card.value}</span>
          <span className="stat-label">{card.label}</span>
        </li>
      ))}
    </ul>
  );
}
