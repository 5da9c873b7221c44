import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import type { StaffUser } from "@/lib/session";
import { publicPacksQuery } from "@/features/dashboards/api/queries";
import { DashboardFrame } from "./DashboardFrame";
import { StatCards } from "./StatCards";

// Spec §9: the educator figures and packs are fixed until the packs launch.
const EDUCATOR_STATS = [
  { value: "3", label: "Packs available" },
  { value: "105", label: "Total downloads" },
  { value: "120", label: "Students reached" },
] as const;

const PACKS = [
  {
    id: "democracy",
    title: "How Democracy Works",
    level: "High School",
    downloads: 45,
  },
  {
    id: "climate",
    title: "Climate Policy and Global Cooperation",
    level: "Advanced",
    downloads: 32,
  },
  {
    id: "rights",
    title: "Human Rights in Everyday Life",
    level: "Middle School",
    downloads: 28,
  },
] as const;

export function EducatorDashboard({ user }: { user: StaffUser }) {
  const notify = useToast();
  // Once the packs are launched, Download serves each pack's file.
  const files = useQuery(publicPacksQuery()).data;
  return (
    <DashboardFrame user={user}>
      <StatCards cards={EDUCATOR_STATS} className="dashboard-block" />
      <section aria-labelledby="packs-heading" className="dashboard-block">
        <h2 id="packs-heading" className="dashboard-subtitle">
          Educational Packs
        </h2>
        <ul className="pack-list">
          {PACKS.map((pack) => {
            const url = files?.packs.find((p) => p.id === pack.id)?.file_url;
            return (
              <li key={pack.id} className="pack-item">
                <div>
                  <h3 className="pack-title">{pack.title}</h3>
                  <p className="muted">
                    {pack.level} · {pack.downloads} downloads
                  </p>
                </div>
                {url ? (
                  <a
                    className="btn btn-secondary btn-sm"
                    href={url}
                    download={`${pack.id}.pdf`}
                  >
                    Download<span className="sr-only"> {pack.title}</span>
                  </a>
                ) : (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() =>
                      notify({
                        title: "Packs launch this January",
                        description: `“${pack.title}” can be downloaded once the educational packs launch.`,
                      })
                    }
                  >
                    Download<span className="sr-only"> {pack.title}</span>
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      </section>
    </DashboardFrame>
  );
}
