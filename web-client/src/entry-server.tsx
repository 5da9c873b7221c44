import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { App } from "./app/App";
import { seedQueryCache } from "./app/initial-data";
import {
  ARTICLE_BODY_MARK,
  withArticleBody,
  type PageData,
} from "./app/page-data";
import { preloadAllPages } from "./app/routes";
import { createQueryClient } from "./lib/query-client";
import { splitUrl } from "./lib/query-string";

export type { PageData };

/**
 * Pages outside the main bundle, loaded before the first render, which is
 * synchronous: the server's HTML never shows a page's loading state. The
 * renderer waits for it (the build is a CommonJS file, which the sidecar
 * compiles with a code cache: it has no top-level await).
 */
export const ready: Promise<void> = preloadAllPages();

/**
 * Renders the page for `url` (pathname + search) to the HTML that goes
 * inside `<div id="root">`. Head tags are the Rust app's job.
 */
export function render(url: string, served: PageData): string {
  const { pathname, search } = splitUrl(url);
  // An article's body stays in the app, which puts it where the mark is.
  const data = withArticleBody(served, ARTICLE_BODY_MARK);
  // A query cache of its own for every render, holding only this request's
  // page data: nothing is shared between requests, or readers.
  const queryClient = createQueryClient();
  seedQueryCache(queryClient, data, pathname, search);
  try {
    return renderToString(
      <StrictMode>
        <App
          data={data}
          queryClient={queryClient}
          ssrPath={pathname}
          ssrSearch={search}
        />
      </StrictMode>,
    );
  } finally {
    queryClient.clear();
  }
}
