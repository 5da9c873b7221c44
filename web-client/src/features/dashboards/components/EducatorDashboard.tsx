import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import type { StaffUser } from "@/lib/session";
import { packDownloadHref } from "@/features/dashboards/api/admin";
import { packUsageQuery } from "@/features/dashboards/api/queries";
import { formatShortDate } from "@/lib/dates";
import { DashboardFrame } from "./DashboardFrame";
import { StatCards } from "./StatCards";
import { useQuery } from "@/lib/use-query";

const plural = (n: number, one: string, many: string) =>
  `${n} ${n === 1 ? one : many}`;

/**
 * The educator's packs, with what the server knows: how many can be
 * downloaded, and how often staff downloaded each (once per member, pack and
 * day). Nothing here is a figure we cannot know.
 */
export function EducatorDashboard({ user }: { user: StaffUser }) {
  const notify = useToast();
  const usage = useQuery(packUsageQuery()).data;
  const launched = usage?.launched_at ?? null;
  return (
    <DashboardFrame user={user}>
      {usage ? (
        <StatCards
          cards={[
            { value: String(usage.available), label: "Packs available" },
            { value: String(usage.total_downloads), label: "Total downloads" },
          ]}
          className="dashboard-block"
        />
      ) : null}
      <section aria-labelledby="packs-heading" className="dashboard-block">
        <h2 id="packs-heading" className="dashboard-subtitle">
          Educational Packs
        </h2>
        <p className="muted">
          {usage === undefined
            ? "Loading the packs..."
            : launched
              ? `Launched ${formatShortDate(launched)}.`
              : "The packs are not launched yet: you can download them once they are."}
        </p>
        <ul className="pack-list">
          {(usage?.packs ?? []).map((pack) => (
            <li key={pack.id} className="pack-item">
              <div>
                <h3 className="pack-title">{pack.title}</h3>
                <p className="muted">
                  {pack.level} ·{" "}
                  {plural(pack.downloads, "download", "downloads")}
                </p>
              </div>
              {pack.available ? (
                <a
                  className="btn btn-secondary btn-sm"
                  href={packDownloadHref(pack.id)}
                >
                  Download<span className="sr-only"> {pack.title}</span>
                </a>
              ) : (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() =>
                    notify({
                      title: "Not launched yet",
                      description: `“${pack.title}” can be downloaded once the educational packs launch.`,
                    })
                  }
                >
                  Download<span className="sr-only"> {pack.title}</span>
                </Button>
              )}
            </li>
          ))}
        </ul>
      </section>
    </DashboardFrame>
  );
}
