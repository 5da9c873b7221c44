import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import {
  navigate as changeAddress,
  usePathname,
} from "wouter/use-browser-location";
import {
  AUTHOR_PATH,
  articleQuery,
  authorQuery,
  homeArticlesQuery,
  listingQuery,
  parseLimit,
  parseListingQuery,
} from "@/features/content";
import {
  ISSUE_PATH,
  issueQuery,
  issuesQuery,
  packsQuery,
} from "@/features/outreach/magazine";
import { splitUrl } from "@/lib/query-string";
import { ARTICLE_PATH, decode } from "./initial-data";
import { preloadPage } from "./routes";

/** The longest a click waits for the next page's data before going anyway. */
const MAX_WAIT_MS = 8000;

/**
 * Loads what the page at `to` shows first — its code and its data, into the
 * query cache — so that it appears whole. Never rejects: a page whose data
 * failed shows its own error.
 */
export async function prefetchPage(
  client: QueryClient,
  to: string,
): Promise<void> {
  const { pathname, search } = splitUrl(to);
  const path = decode(pathname);
  const work: Promise<unknown>[] = [];
  const chunk = preloadPage(path);
  if (chunk) work.push(chunk);
  const slug = ARTICLE_PATH.exec(path)?.[1];
  const issue = ISSUE_PATH.exec(path)?.[1];
  const author = AUTHOR_PATH.exec(path)?.[1];
  if (path === "/") work.push(client.ensureQueryData(homeArticlesQuery()));
  else if (path === "/articles")
    work.push(client.ensureQueryData(listingQuery(parseListingQuery(search))));
  else if (slug !== undefined)
    work.push(client.ensureQueryData(articleQuery(slug)));
  else if (path === "/magazine")
    work.push(client.ensureQueryData(issuesQuery()));
  else if (issue !== undefined)
    work.push(client.ensureQueryData(issueQuery(issue)));
  else if (author !== undefined) {
    const limit = parseLimit(new URLSearchParams(search).get("limit"));
    work.push(client.ensureQueryData(authorQuery(author, limit)));
  } else if (path === "/educational-packs")
    work.push(client.ensureQueryData(packsQuery()));
  await Promise.allSettled(work);
}

// Whether a navigation is waiting for its page, for the progress bar.
let waiting = false;
const listeners = new Set<() => void>();
function setWaiting(value: boolean) {
  if (waiting === value) return;
  waiting = value;
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A link was followed and its page is still loading. */
export function useNavigationWaiting(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => waiting,
    () => false,
  );
}

/** The latest navigation asked for; an earlier one still loading is dropped. */
let latest = 0;

type Navigate = (
  to: string | URL,
  options?: { replace?: boolean; state?: unknown },
) => void;

/**
 * The router's location hook: the browser's address, and a `navigate` that
 * keeps the current page on screen until the next one's data is there (or
 * for at most MAX_WAIT_MS), instead of a blank "Loading…" on a slow network.
 */
export function usePrefetchingLocation(options?: {
  ssrPath?: string;
}): [string, Navigate] {
  const location = usePathname(options);
  const client = useQueryClient();
  const navigate = useCallback<Navigate>(
    (to, navigateOptions) => {
      // A redirect from the page being left (a dashboard seeing its user
      // sign out) does not override the link that was followed.
      if (waiting && navigateOptions?.replace) return;
      const target = String(to);
      const ticket = ++latest;
      setWaiting(true);
      const timeout = new Promise<void>((resolve) =>
        window.setTimeout(resolve, MAX_WAIT_MS),
      );
      void Promise.race([prefetchPage(client, target), timeout]).then(() => {
        if (ticket !== latest) return;
        setWaiting(false);
        changeAddress(target, navigateOptions);
      });
    },
    [client],
  );
  return [location, navigate];
}
