import type { components } from "@/api/schema";
import { api, expectOk } from "@/lib/api-client";
import { STAFF_QUERIES } from "@/lib/query-client";
import { useQuery } from "@/lib/use-query";

export type NewsroomRules = components["schemas"]["NewsroomRules"];
export type Stage = components["schemas"]["Stage"];

const rulesKey = [STAFF_QUERIES, "newsroom-rules"] as const;

/**
 * How the newsroom runs here (whether writers submit for review instead of
 * publishing); `null` until known. Shared by the dashboards and the editor.
 */
export function useNewsroomRules(): NewsroomRules | null {
  const { data } = useQuery({
    queryKey: rulesKey,
    queryFn: async ({ signal }) =>
      expectOk(await api.GET("/v1/staff/newsroom", { signal })),
    staleTime: Infinity,
  });
  return data ?? null;
}

/** How a stage reads on a badge. */
export const STAGE_LABELS: Record<Stage, string> = {
  draft: "Draft",
  in_review: "In review",
  scheduled: "Scheduled",
  published: "Published",
};

/**
 * A `datetime-local` value (the editor's own time zone) as an ISO instant, or
 * `null` when empty or not a time.
 */
export function localInputToIso(value: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** An ISO instant as a `datetime-local` value in the browser's time zone. */
export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return "";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A time as the editor's clock shows it, e.g. "Mon, Nov 30, 7:00 AM". */
export function formatWhen(iso: string): string {
  return new Intl.DateTimeFormat("en-US", {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  }).format(new Date(iso));
}
