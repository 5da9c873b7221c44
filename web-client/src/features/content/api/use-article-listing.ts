import { useCallback, useEffect, useState } from "react";
import { useToast } from "@/components/toast";
import { EMPTY_LIST, fetchArticles, reportLoadFailure } from "./get-articles";
import type { ArticleList } from "./types";
import {
  PAGE_SIZE,
  listingKey,
  toApiQuery,
  type ListingQuery,
} from "@/features/content/listing-query";

interface Loaded {
  key: string;
  list: ArticleList;
}

export interface ArticleListing {
  /** `null` while the first page for this search is loading. */
  list: ArticleList | null;
  loadingMore: boolean;
  /** Appends the next page; resolves to true when it was added. */
  loadMore: () => Promise<boolean>;
}

/**
 * Results for a listing query. A change of search or categories loads afresh
 * (`query.limit` results); a larger limit alone never refetches what is shown.
 */
export function useArticleListing(
  query: ListingQuery,
  initial: ArticleList | undefined,
): ArticleListing {
  const key = listingKey(query);
  const notify = useToast();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const list = loaded?.key === key ? loaded.list : (initial ?? null);
  const have = list !== null;

  useEffect(() => {
    if (have) return;
    let cancelled = false;
    fetchArticles(toApiQuery(query, 0, query.limit)).then(
      (data) => !cancelled && setLoaded({ key, list: data }),
      (cause: unknown) => {
        if (cancelled) return;
        reportLoadFailure(notify, cause);
        setLoaded({ key, list: EMPTY_LIST });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [key, have, query, notify]);

  const loadMore = useCallback(async () => {
    if (!list) return false;
    setLoadingMore(true);
    try {
      const page = await fetchArticles(
        toApiQuery(query, list.items.length, PAGE_SIZE),
      );
      setLoaded((prev) => {
        const base = prev?.key === key ? prev.list : list;
        return {
          key,
          list: { ...page, items: [...base.items, ...page.items] },
        };
      });
      return true;
    } catch (cause) {
      reportLoadFailure(notify, cause);
      return false;
    } finally {
      setLoadingMore(false);
    }
  }, [key, list, query, notify]);

  return { list, loadingMore, loadMore };
}
