import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import beasties from "beasties";

// The package's types describe it as CommonJS, whose default export would be the module;
// Node loads its ES module build, whose default export is the class itself.
const Beasties = beasties as unknown as typeof beasties.default;

/** Finds the CSS a page's markup needs, so that it can be inlined in the page. */
export type CriticalFn = (markup: string) => Promise<string>;

// Located from this file (dist/critical.js), not from the working directory.
const DEFAULT_CLIENT = fileURLToPath(
  new URL("../../web-client/dist/client/", import.meta.url),
);

/** The stylesheets the page template links, in order. */
export function stylesheetsOf(template: string): string[] {
  const hrefs: string[] = [];
  for (const tag of template.match(/<link\b[^>]*>/gi) ?? []) {
    if (!/\brel=["']?stylesheet\b/i.test(tag)) continue;
    const href = /\bhref=["']?([^"'\s>]+)/i.exec(tag);
    if (href?.[1]) hrefs.push(href[1]);
  }
  return hrefs;
}

/**
 * The rules of the template's stylesheets that apply to the elements in `markup` (and the
 * media queries, keyframes and custom properties they use), minified. The rest of the
 * stylesheet still loads, later; the page paints without waiting for it. `SSR_CLIENT_DIR`
 * may point at another build of the web client.
 */
export function loadCritical(
  clientDir = process.env.SSR_CLIENT_DIR ?? DEFAULT_CLIENT,
): CriticalFn {
  const links = stylesheetsOf(readFileSync(`${clientDir}/index.html`, "utf8"))
    .map((href) => `<link rel="stylesheet" href="${href}">`)
    .join("");
  const inliner = new Beasties({
    path: clientDir,
    publicPath: "/",
    preload: "body",
    pruneSource: false,
    mergeStylesheets: true,
    reduceInlineStyles: false,
    inlineFonts: false,
    compress: true,
    logLevel: "warn",
  });
  return async (markup) => {
    if (!links) return "";
    const html = await inliner.process(
      `<!doctype html><html><head>${links}</head><body><div id="root">${markup}</div></body></html>`,
    );
    return /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
  };
}
