import type { ViewStats } from "@/features/dashboards/types";
import { dayLabel } from "@/features/dashboards/format";

/**
 * Views per day as bars, oldest on the left, with the same figures in a table
 * for screen readers (the bars are decoration for them).
 */
export function DailyViewsChart({
  days,
  timeZone,
}: {
  days: ViewStats["days"];
  timeZone: string;
}) {
  const peak = Math.max(0, ...days.map((d) => d.views));
  const scale = Math.max(1, peak);
  const total = days.reduce((sum, d) => sum + d.views, 0);
  const first = days[0];
  const last = days[days.length - 1];
  return (
    <figure className="stats-card views-chart">
      <figcaption className="stats-card-title">
        Views per day, last {days.length} days
        <span className="muted"> ({timeZone})</span>
      </figcaption>
      <div className="chart-bars" aria-hidden="true">
        {days.map((day) => (
          <span
            key={day.date}
            className="chart-bar"
            title={`${dayLabel(day.date)}: ${day.views}`}
            style={{ height: `${(day.views / scale) * 100}%` }}
          />
        ))}
      </div>
      {first && last ? (
        <div className="chart-axis" aria-hidden="true">
          <span>{dayLabel(first.date)}</span>
          <span>
            {total} in all · busiest day {peak}
          </span>
          <span>{dayLabel(last.date)}</span>
        </div>
      ) : null}
      <table className="sr-only">
        <caption>Page views per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Views</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <td>{dayLabel(day.date)}</td>
              <td>{day.views}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
