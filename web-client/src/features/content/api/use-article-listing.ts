import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useLocation } from "wouter";
import { useToast } from "@/components/toast";
import { useQueryFailure } from "@/lib/query-client";
import { articlesQuery, reportLoadFailure, shownList } from "./get-articles";
import type { ArticleList } from "./types";
import {
  MAX_LIMIT,
  PAGE_SIZE,
  nextLimit,
  toApiQuery,
  type ListingQuery,
} from "@/features/content/listing-query";
import { useQuery } from "@/lib/use-query";

/**
 * The first `query.limit` results of a listing query: the cache entry is the
 * URL's (search, categories and limit), so what a URL shows is always the
 * same list, and going back to a listing finds it again.
 */
export const listingQuery = (query: ListingQuery) =>
  articlesQuery(toApiQuery(query, 0, query.limit));

/** The listing "Load More" leads to (past the API's maximum, the URL's limit reads as MAX_LIMIT again). */
const nextListing = (query: ListingQuery): ListingQuery => ({
  ...query,
  limit: Math.min(nextLimit(query), MAX_LIMIT),
});

/**
 * Fetches the page after `list` and puts the longer list where the next URL
 * ("Load More" raises `limit` by a page) will look for it, so that following
 * that URL shows it at once. Resolves to the number of results the page added;
 * rejects when the page cannot be fetched.
 */
export async function loadNextPage(
  queryClient: QueryClient,
  query: ListingQuery,
  list: ArticleList,
): Promise<number> {
  const page = await queryClient.fetchQuery(
    articlesQuery(toApiQuery(query, list.items.length, PAGE_SIZE)),
  );
  queryClient.setQueryData(listingQuery(nextListing(query)).queryKey, {
    ...page,
    items: [...list.items, ...page.items],
  });
  return page.items.length;
}

export interface ArticleListing {
  /** `null` while the first page for this search is loading. */
  list: ArticleList | null;
  /** The first page could not be loaded. */
  failed: boolean;
  retry: () => void;
  loadingMore: boolean;
  /** How many results the reader has asked for: the URL's limit, or more once pages were loaded. */
  asked: number;
  /** Appends the next page; resolves to true when it was added. */
  loadMore: () => Promise<boolean>;
}

/**
 * Results for a listing query, from the cache (where the server's list is put
 * before the first render) or fetched. A change of search or categories loads
 * afresh; "Load More" only fetches the next page.
 */
export function useArticleListing(query: ListingQuery): ArticleListing {
  const queryClient = useQueryClient();
  const notify = useToast();
  const options = listingQuery(query);
  const result = useQuery(options);
  useQueryFailure(options.queryKey, (cause) =>
    reportLoadFailure(notify, cause),
  );
  const { list, failed, retry } = shownList(result);
  const [loadingMore, setLoadingMore] = useState(false);
  // Asked for by loading pages, for this listing (a new search starts again from its URL).
  const key = JSON.stringify(options.queryKey);
  const [loaded, setLoaded] = useState({ key, asked: 0 });
  const asked = Math.max(query.limit, loaded.key === key ? loaded.asked : 0);

  const loadMore = useCallback(async () => {
    if (!list) return false;
    setLoadingMore(true);
    try {
      await loadNextPage(queryClient, query, list);
      setLoaded({
        key: JSON.stringify(listingQuery(nextListing(query)).queryKey),
        asked: list.items.length + PAGE_SIZE,
      });
      return true;
    } catch (cause) {
      reportLoadFailure(notify, cause);
      return false;
    } finally {
      setLoadingMore(false);
    }
  }, [queryClient, list, query, notify]);

  return { list, failed, retry, loadingMore, asked, loadMore };
}

/** A listing page's results, as `ListingResults` takes them. */
export interface ListingPage {
  list: ArticleList | null;
  failed: boolean;
  onRetry: () => void;
  loadMoreHref: string;
  loadingMore: boolean;
  /** How many results the reader asked for (a shorter list is the end). */
  asked: number;
  onLoadMore: () => void;
}

/**
 * A page's listing for `query`, with "Load More" leading to `loadMoreHref`:
 * a plain click appends the next page in place and then moves the address
 * there (so a reload or a shared link shows as many); without JavaScript the
 * link asks the server for the longer list.
 */
export function useListingPage(
  query: ListingQuery,
  loadMoreHref: string,
): ListingPage {
  const [, navigate] = useLocation();
  const { list, failed, retry, loadingMore, asked, loadMore } =
    useArticleListing(query);
  const onLoadMore = () => {
    void loadMore().then((added) => {
      if (added) navigate(loadMoreHref, { replace: true });
    });
  };
  return {
    list,
    failed,
    onRetry: retry,
    loadMoreHref,
    loadingMore,
    asked,
    onLoadMore,
  };
}
