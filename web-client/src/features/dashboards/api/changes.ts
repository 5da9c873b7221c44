import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { createContext, useContext, useMemo } from "react";
import type { Notices, StaffArticle } from "@/features/dashboards/types";
import { fetchAgain } from "@/lib/query-client";
import { staffKeys } from "./keys";
import type { Profile } from "./profiles";

// What each staff change makes stale. Each resolves once the lists on screen
// have been fetched again, so that an action counts as done (its row stops
// being busy) when the table shows its outcome.

/**
 * The public pages' copies of what staff change, which other features own
 * and mark stale (src/app gives their helpers: features never import each
 * other).
 */
export interface PublicCopies {
  /** Article lists and pages. */
  articles: () => void;
  /** Published magazine issues. */
  magazines: () => void;
  /** The educational packs. */
  packs: () => void;
}

const NO_COPIES: PublicCopies = {
  articles: () => {},
  magazines: () => {},
  packs: () => {},
};

export const PublicCopiesContext = createContext<PublicCopies>(NO_COPIES);

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
 * dashboard's list is fetched again, and `onPublicChange` marks the public
 * pages' copies of the issues stale.
 */
export async function magazinesChanged(
  queryClient: QueryClient,
  onPublicChange?: () => void,
) {
  onPublicChange?.();
  await fetchAgain(queryClient, staffKeys.magazines);
}

/**
 * A pack was uploaded, or the packs launched: the admin's list is fetched
 * again, and `onPublicChange` marks the public copies of the packs stale.
 */
export async function packsChanged(
  queryClient: QueryClient,
  onPublicChange?: () => void,
) {
  onPublicChange?.();
  await fetchAgain(queryClient, staffKeys.packs);
}

/** A staff member was added, got a new key, or was disabled or enabled. */
export async function staffChanged(queryClient: QueryClient) {
  await Promise.all([
    fetchAgain(queryClient, staffKeys.members),
    // The content director's choice of author lists the active writers.
    fetchAgain(queryClient, staffKeys.writers),
  ]);
}

/** The member's email notices as saved: the form shows them from now on. */
export function noticesSaved(queryClient: QueryClient, saved: Notices): void {
  queryClient.setQueryData(staffKeys.notices, saved);
}

/**
 * An announcement was sent: its preview (with the progress) is fetched
 * again, and from then on every two seconds while it goes on.
 */
export function announcementSent(
  queryClient: QueryClient,
  ref: string,
): Promise<void> {
  return fetchAgain(queryClient, staffKeys.announcement(ref));
}

/**
 * A contributor's profile was saved: the form shows it from now on, and the
 * public copies of articles (their bylines) are stale.
 */
export function profileSaved(
  queryClient: QueryClient,
  member: string | null,
  saved: Profile,
  onPublicChange?: () => void,
): void {
  queryClient.setQueryData(staffKeys.profile(member ?? "me"), saved);
  onPublicChange?.();
}

/** The changes above, for the dashboards' mutations (`onSuccess`). */
export function useStaffChanges() {
  const queryClient = useQueryClient();
  const copies = useContext(PublicCopiesContext);
  return useMemo(
    () => ({
      articles: () => articlesChanged(queryClient, copies.articles),
      articleSaved: (saved: StaffArticle) => articleSaved(queryClient, saved),
      magazines: () => magazinesChanged(queryClient, copies.magazines),
      packs: () => packsChanged(queryClient, copies.packs),
      staff: () => staffChanged(queryClient),
      noticesSaved: (saved: Notices) => noticesSaved(queryClient, saved),
      profileSaved: (member: string | null, saved: Profile) =>
        profileSaved(queryClient, member, saved, copies.articles),
      announcementSent: (ref: string) => announcementSent(queryClient, ref),
    }),
    [queryClient, copies],
  );
}
