import { useEffect, useState } from "react";
import { api } from "@/lib/api-client";
import type { ArticleResult } from "./types";

/** GET /api/v1/articles/{slug_or_id}: a 404 (or other 4xx) is "not found",
 * a 5xx or a network error is "failed". */
export async function fetchArticle(slug: string): Promise<ArticleResult> {
  try {
    const { data, response } = await api.GET("/v1/articles/{slug_or_id}", {
      params: { path: { slug_or_id: slug } },
    });
    if (data) return { kind: "found", article: data };
    if (response.status >= 400 && response.status < 500)
      return { kind: "not_found" };
    console.error(`Article request failed with status ${response.status}`);
    return { kind: "failed" };
  } catch (cause) {
    console.error("Article request failed", cause);
    return { kind: "failed" };
  }
}

/** The article for `slug`: the server-provided one if given, else fetched;
 * `null` while loading. */
export function useArticle(
  slug: string,
  initial: ArticleResult | undefined,
): ArticleResult | null {
  const [loaded, setLoaded] = useState<{
    slug: string;
    result: ArticleResult;
  } | null>(null);
  const result = initial ?? (loaded?.slug === slug ? loaded.result : null);
  const have = result !== null;

  useEffect(() => {
    if (have) return;
    let cancelled = false;
    void fetchArticle(slug).then((r) => {
      if (!cancelled) setLoaded({ slug, result: r });
    });
    return () => {
      cancelled = true;
    };
  }, [slug, have]);

  return result;
}
