import { Button } from "@/components/Button";
import { useQueryFailure } from "@/lib/query-client";
import { viewStatsQuery } from "@/features/dashboards/api/queries";
import { useReportFailure } from "@/features/dashboards/api/use-staff-data";
import type { ViewStats } from "@/features/dashboards/types";
import { DailyViewsChart } from "./DailyViewsChart";
import { StatCards } from "./StatCards";
import { useQuery } from "@/lib/use-query";

const number = new Intl.NumberFormat("en-US");

/** The browser's IANA zone: "Views Today" starts at the admin's midnight. */
function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * Spec §2 Admin dashboard: Total Page Views, Views Today and Magazines, then
 * the last 30 days and the most read articles. The figures are counted by the
 * server; `magazines` comes from the magazine list the page already holds.
 */
export function ViewStatsPanel({ magazines }: { magazines: number | null }) {
  const report = useReportFailure();
  // Dashboards are only rendered in the browser.
  const query = viewStatsQuery(browserTimeZone());
  const { data: stats, isFetching, refetch } = useQuery(query);
  useQueryFailure(query.queryKey, (cause) =>
    report("Failed to load page views", cause),
  );

  const figure = (value: number | null | undefined) =>
    value === null || value === undefined ? "…" : number.format(value);
  const cards = [
    { label: "Total Page Views", value: figure(stats?.total_views) },
    { label: "Views Today", value: figure(stats?.views_today) },
    { label: "Magazines", value: figure(magazines) },
  ];

  return (
    <section aria-labelledby="stats-heading" className="dashboard-block">
      <div className="block-head">
        <h2 id="stats-heading" className="dashboard-subtitle">
          Readership
        </h2>
        <Button
          variant="quiet"
          size="sm"
          disabled={isFetching}
          onClick={() => void refetch()}
        >
          Refresh
        </Button>
      </div>
      <div aria-live="polite">
        <StatCards cards={cards} />
      </div>
      {stats ? (
        <div className="stats-detail">
          <DailyViewsChart days={stats.days} timeZone={stats.time_zone} />
          <TopArticles articles={stats.top_articles} />
        </div>
      ) : null}
    </section>
  );
}

function TopArticles({ articles }: { articles: ViewStats["top_articles"] }) {
  return (
    <div className="stats-card">
      <h3 className="stats-card-title">Most read, last 30 days</h3>
      {articles.length === 0 ? (
        <p className="muted">No article has been read yet.</p>
      ) : (
        <ol className="top-articles">
          {articles.map((article) => (
            <li key={article.slug}>
              {article.title ? (
                <a
                  href={`/article/${article.slug}`}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  {article.title}
                </a>
              ) : (
                <span className="muted">
                  {article.slug} (no longer published)
                </span>
              )}
              <span className="top-views">
                {number.format(article.views)}{" "}
                {article.views === 1 ? "view" : "views"}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
