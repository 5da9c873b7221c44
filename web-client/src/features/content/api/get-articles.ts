import { useEffect, useState } from "react";
import { useToast, type Notify } from "@/components/toast";
import { api } from "@/lib/api-client";
import type { ArticleList, ArticlesQuery } from "./types";

export const EMPTY_LIST: ArticleList = {
  items: [],
  total: 0,
  published_total: 0,
};

/** GET /api/v1/articles; rejects on an error status or a network failure. */
export async function fetchArticles(
  query: ArticlesQuery,
): Promise<ArticleList> {
  const { data, error, response } = await api.GET("/v1/articles", {
    params: { query },
  });
  if (!data) {
    throw new Error(
      error?.message ?? `Articles request failed (${response.status})`,
    );
  }
  return data;
}

export const HOME_QUERY: ArticlesQuery = {
  sort: "featured",
  limit: 3,
  category: [],
};

/** Spec §8: "Error" / "Failed to load articles"; the list stays empty. */
export function reportLoadFailure(notify: Notify, cause: unknown): void {
  console.error("Failed to load articles", cause);
  notify({
    title: "Error",
    description: "Failed to load articles",
    variant: "destructive",
  });
}

/**
 * Home's "From Our Writers": up to 3 articles, featured first. Uses the
 * server-provided list when there is one; `null` while loading.
 */
export function useHomeArticles(
  initial: ArticleList | undefined,
): ArticleList | null {
  const [fetched, setFetched] = useState<ArticleList | null>(null);
  const notify = useToast();
  const list = initial ?? fetched;
  const have = list !== null;

  useEffect(() => {
    if (have) return;
    let cancelled = false;
    fetchArticles(HOME_QUERY).then(
      (data) => !cancelled && setFetched(data),
      (cause: unknown) => {
        if (cancelled) return;
        reportLoadFailure(notify, cause);
        setFetched(EMPTY_LIST);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [have, notify]);

  return list;
}
