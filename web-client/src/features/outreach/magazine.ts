// Published magazine issues as queries: the server sends them with the page
// data of /magazine and /magazine/{slug} (seeded before the first render), and
// pages reached in the app fetch them from the API.
import { queryOptions } from "@tanstack/react-query";
import type { components } from "@/api/schema";
import { api, ApiFailure, errorMessage } from "@/lib/api-client";
import { magazineKeys, packsKeys } from "./api/keys";

export type MagazineIssue = components["schemas"]["MagazineIssue"];
export type IssueResult =
  { kind: "found"; issue: MagazineIssue } | { kind: "not_found" };

export const issuesQuery = () =>
  queryOptions({
    queryKey: magazineKeys.issues,
    queryFn: async ({ signal }): Promise<MagazineIssue[]> => {
      const { data, error, response } = await api.GET("/v1/magazine/issues", {
        signal,
      });
      if (data) return data;
      throw new ApiFailure(
        response.status,
        errorMessage(error) || `Issues request failed (${response.status})`,
      );
    },
  });

export const issueQuery = (slug: string) =>
  queryOptions({
    queryKey: magazineKeys.issue(slug),
    queryFn: async ({ signal }): Promise<IssueResult> => {
      const { data, error, response } = await api.GET(
        "/v1/magazine/issues/{slug}",
        { params: { path: { slug } }, signal },
      );
      if (data) return { kind: "found", issue: data };
      if (response.status >= 400 && response.status < 500)
        return { kind: "not_found" };
      throw new ApiFailure(
        response.status,
        errorMessage(error) || `Issue request failed (${response.status})`,
      );
    },
  });

/** The issue route's pattern, "/magazine/:slug", as wouter matches it. */
export const ISSUE_PATH = /^\/magazine\/([^/]+?)\/?$/i;

/** "November 2026"-style date of an issue (YYYY-MM-DD, read as a calendar date). */
export function issueMonth(date: string): string {
  const [year, month, day] = date.split("-").map(Number);
  if (!year || !month || !day) return date;
  return new Intl.DateTimeFormat("en-US", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(year, month - 1, day)));
}

/** A file size for a download link: "4.2 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export type Packs = components["schemas"]["Packs"];

/** GET /v1/packs: the packs, with their files once launched. */
export const packsQuery = () =>
  queryOptions({
    queryKey: packsKeys.all,
    queryFn: async ({ signal }): Promise<Packs> => {
      const { data, error, response } = await api.GET("/v1/packs", { signal });
      if (data) return data;
      throw new ApiFailure(
        response.status,
        errorMessage(error) || `Packs request failed (${response.status})`,
      );
    },
  });
