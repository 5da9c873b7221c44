import type { QueryClient } from "@tanstack/react-query";

/**
 * Query keys of the published magazine issues (GET /v1/magazine/issues and
 * GET /v1/magazine/issues/{slug}). An admin's change to an issue invalidates
 * `all`.
 */
export const magazineKeys = {
  all: ["magazine"] as const,
  issues: ["magazine", "issues"] as const,
  issue: (slug: string) => ["magazine", "issue", slug] as const,
};

/** Query keys of the educational packs (GET /v1/packs). */
export const packsKeys = {
  all: ["packs"] as const,
};

/**
 * After an admin published, changed, took back or deleted an issue: the
 * issues in the cache are stale, fetched again where they are shown.
 */
export function invalidatePublicMagazine(
  queryClient: QueryClient,
): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: magazineKeys.all });
}

/** After a pack was uploaded or the packs launched: the packs are stale. */
export function invalidatePublicPacks(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: packsKeys.all });
}
