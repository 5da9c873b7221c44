import { StrictMode, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { Router } from "wouter";
import { App } from "./app/App";
import { seedQueryCache } from "./app/initial-data";
import {
  ARTICLE_BODY_MARK,
  withArticleBody,
  type PageData,
} from "./app/page-data";
import { preloadAllPages } from "./app/routes";
import { FooterContents } from "./components/Footer";
import { HeaderContents } from "./components/Header";
import { KeptMarkupContext, type KeptMarkup } from "./lib/kept-markup";
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

/** Kept markup by site name: one in practice, a few at most. */
const keptBySite = new Map<string, KeptMarkup>();
const MAX_KEPT = 8;

/** `element`'s markup, rendered on its own (its links route as the app's). */
function markupOf(element: ReactElement): string {
  return renderToString(<Router ssrPath="/">{element}</Router>);
}

/**
 * The markup every page of `site` shares, each part rendered once: the
 * header (one per section and reader) and the footer are two fifths of a
 * page's elements, and the same from page to page.
 */
function keptMarkup(site: string): KeptMarkup {
  let kept = keptBySite.get(site);
  if (kept === undefined) {
    const headers = new Map<string, string>();
    kept = {
      header(current, reader) {
        const key = `${current ?? ""}\n${reader}`;
        let html = headers.get(key);
        if (html === undefined) {
          html = markupOf(
            <HeaderContents
              name={site}
              current={current}
              open={false}
              user={null}
              reader={reader}
            />,
          );
          headers.set(key, html);
        }
        return html;
      },
      footer: markupOf(<FooterContents name={site} />),
    };
    if (keptBySite.size >= MAX_KEPT) keptBySite.clear();
    keptBySite.set(site, kept);
  }
  return kept;
}

/**
 * Renders the page for `url` (pathname + search) to the HTML that goes
 * inside `<div id="root">`. Head tags are the Rust app's job.
 */
export function render(url: string, served: PageData): string {
  return renderPage(url, served, keptMarkup(served.site.name));
}

/**
 * `render`, with the shared markup `kept` (or, with null, every part of the
 * page rendered afresh: the same HTML).
 */
export function renderPage(
  url: string,
  served: PageData,
  kept: KeptMarkup | null,
): string {
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
        <KeptMarkupContext.Provider value={kept}>
          <App
            data={data}
            queryClient={queryClient}
            ssrPath={pathname}
            ssrSearch={search}
          />
        </KeptMarkupContext.Provider>
      </StrictMode>,
    );
  } finally {
    queryClient.clear();
  }
}
