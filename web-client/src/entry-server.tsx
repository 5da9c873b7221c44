import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { App } from "./app/App";
import type { PageData } from "./app/page-data";
import { splitUrl } from "./lib/query-string";

export type { PageData };

/**
 * Renders the page for `url` (pathname + search) to the HTML that goes
 * inside `<div id="root">`. Head tags are the Rust app's job.
 */
export function render(url: string, data: PageData): string {
  const { pathname, search } = splitUrl(url);
  return renderToString(
    <StrictMode>
      <App data={data} ssrPath={pathname} ssrSearch={search} />
    </StrictMode>,
  );
}
