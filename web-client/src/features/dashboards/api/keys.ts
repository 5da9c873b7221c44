import { STAFF_QUERIES } from "@/lib/query-client";

/**
 * Every query key of the dashboards. They all start with STAFF_QUERIES, so a
 * sign-in or sign-out removes them from the cache.
 */
export const staffKeys = {
  all: [STAFF_QUERIES] as const,
  /** GET /v1/staff/articles: the writer's own, or all for the content director. */
  articles: [STAFF_QUERIES, "articles"] as const,
  /** GET /v1/staff/review-queue: pieces waiting for review. */
  reviewQueue: [STAFF_QUERIES, "review-queue"] as const,
  /** GET /v1/staff/me/notices: where the signed-in member gets newsroom email. */
  notices: [STAFF_QUERIES, "notices"] as const,
  /** A contributor's profile: the signed-in member's (`"me"`) or a member's, by id. */
  profile: (member: string) => [STAFF_QUERIES, "profile", member] as const,
  /** GET /v1/staff/responses: readers' responses waiting for the desk. */
  responseQueue: [STAFF_QUERIES, "response-queue"] as const,
  /** The newest published articles, whose responses the desk closes or opens. */
  recentArticles: [STAFF_QUERIES, "recent-articles"] as const,
  /** Whether a published article (by slug) takes responses. */
  responsesOpen: (slug: string) =>
    [STAFF_QUERIES, "responses-open", slug] as const,
  /** GET /v1/staff/writers: the content director's choice of author. */
  writers: [STAFF_QUERIES, "writers"] as const,
  /** GET /v1/staff/magazines. */
  magazines: [STAFF_QUERIES, "magazines"] as const,
  /** GET /v1/staff/packs (admin). */
  packs: [STAFF_QUERIES, "packs"] as const,
  /** GET /v1/staff/packs/usage: the educator's packs with their downloads. */
  packUsage: [STAFF_QUERIES, "pack-usage"] as const,
  /** GET /v1/staff/members. */
  members: [STAFF_QUERIES, "members"] as const,
  /** The launch email of an issue (its id) or of the packs ("packs"): preview and progress. */
  announcement: (ref: string) => [STAFF_QUERIES, "announcement", ref] as const,
  /** GET /v1/staff/stats in the admin's time zone. */
  stats: (timeZone: string) => [STAFF_QUERIES, "stats", timeZone] as const,
};
