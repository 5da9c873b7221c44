import type { QueryClient, QueryKey } from "@tanstack/react-query";
import type { StaffArticle } from "@/features/dashboards/types";
import { staffKeys } from "./keys";

// What each staff change makes stale. Each resolves once the lists on screen
// have been fetched again, so that an action counts as done (its row stops
// being busy) when the table shows its outcome.

/**
 * Fetches `queryKey` again, from after the change: a fetch already under way
 * (the dashboard's first load, still running when an upload right after
 * sign-in finishes) may have read the list before the change, so it is
 * cancelled rather than joined.
 */
export async function fetchAgain(queryClient: QueryClient, queryKey: QueryKey) {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}

/**
 * A staff article was created, updated, published, scheduled, reviewed or
 * deleted: the dashboard's lists (its articles, the review queue) are fetched
 * again, and `onPublicChange` (given by the app)
 * marks the public pages' copies of articles stale.
 */
export async function articlesChanged(
  queryClient: QueryClient,
  onPublicChange?: () => void,
): Promise<void> {
  onPublicChange?.();
  await Promise.all([
    fetchAgain(queryClient, staffKeys.articles),
    fetchAgain(queryClient, staffKeys.reviewQueue),
  ]);
}

/**
 * A save answered with the article as it now stands: the dashboard's list
 * shows it at once, so an editor opened on it straight away starts from the
 * saved version (not the one before, which the server would call a conflict
 * with oneself), before the list is fetched again.
 */
export function articleSaved(
  queryClient: QueryClient,
  saved: StaffArticle,
): void {
  queryClient.setQueryData<StaffArticle[]>(staffKeys.articles, (list) =>
    list?.map((article) => (article.id === saved.id ? saved : article)),
  );
}

/**
 * A magazine was uploaded, renamed, published, taken back or deleted: the
 * dashboard's list is fetched again, and the public pages' copies of the
 * issues (the "magazine" queries) are marked stale.
 */
export async function magazinesChanged(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: ["magazine"] });
  await fetchAgain(queryClient, staffKeys.magazines);
}

/** A staff member was added, got a new key, or was disabled or enabled. */
export async function staffChanged(queryClient: QueryClient) {
  await Promise.all([
    fetchAgain(queryClient, staffKeys.members),
    // The content director's choice of author lists the active writers.
    fetchAgain(queryClient, staffKeys.writers),
  ]);
}
