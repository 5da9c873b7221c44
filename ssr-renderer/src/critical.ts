import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
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

/** The attributes whose values the stylesheets select on (`[type=file]`, …). */
export function selectedAttributes(css: string): Set<string> {
  const names = new Set<string>();
  for (const m of css.matchAll(/\[\s*([a-zA-Z][\w-]*)/g)) {
    if (m[1]) names.add(m[1].toLowerCase());
  }
  return names;
}

/**
 * Attributes whose presence pseudo-classes select on (`:disabled`, `:checked`, …), so that
 * two pages differing in them have different shapes.
 */
const PSEUDO_CLASS_ATTRIBUTES = [
  "checked",
  "disabled",
  "open",
  "placeholder",
  "readonly",
  "required",
  "selected",
];

const CLASS = /\sclass="([^"]*)"/;
const TAG = /<([a-zA-Z][\w-]*)([^>]*)>/g;
const attributePatterns = new Map<string, RegExp>();

/** `name`'s value (empty when present without one) in a tag's attributes, or undefined. */
function attribute(attrs: string, name: string): string | undefined {
  if (!attrs.includes(name)) return undefined;
  let pattern = attributePatterns.get(name);
  if (!pattern) {
    pattern = new RegExp(
      `\\s${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+)))?(?=[\\s/]|$)`,
      "i",
    );
    attributePatterns.set(name, pattern);
  }
  const m = pattern.exec(attrs);
  return m ? (m[1] ?? m[2] ?? m[3] ?? "") : undefined;
}

/**
 * What a stylesheet can tell apart in `markup`: each kind of element, as its tag, classes,
 * the values of the attributes in `valued`, and whether it has the attributes
 * pseudo-classes depend on. Two pages with the same shape need the same CSS (short of
 * selectors on nesting, which the site's stylesheet does not rely on to show a page);
 * text, links and images do not change it. Only those attributes are looked for in each
 * tag (React writes class as `class="…"`): a render's markup is scanned once.
 */
export function shapeOf(markup: string, valued: Set<string>): string {
  const shapes = new Set<string>();
  const names = [...new Set([...PSEUDO_CLASS_ATTRIBUTES, ...valued])].sort();
  for (const tag of markup.matchAll(TAG)) {
    let shape = (tag[1] ?? "").toLowerCase();
    const attrs = tag[2] ?? "";
    if (attrs) {
      const classes = CLASS.exec(attrs)?.[1];
      if (classes) {
        shape += "." + classes.split(/\s+/).filter(Boolean).sort().join(".");
      }
      for (const name of names) {
        const value = attribute(attrs, name);
        if (value === undefined) continue;
        shape += valued.has(name) ? `[${name}=${value}]` : `[${name}]`;
      }
    }
    shapes.add(shape);
  }
  return [...shapes].sort().join("\n");
}

/** Shapes remembered at most (each with its CSS, a few kilobytes). */
const MAX_SHAPES = 256;

/**
 * The rules of the template's stylesheets that apply to the elements in `markup` (and the
 * media queries, keyframes and custom properties they use), minified. The rest of the
 * stylesheet still loads, later; the page paints without waiting for it. Finding them takes
 * a few milliseconds, so the answer is kept per page shape (see `shapeOf`): the pages of one
 * kind share it. `SSR_CLIENT_DIR` may point at another build of the web client.
 */
export function loadCritical(
  clientDir = process.env.SSR_CLIENT_DIR ?? DEFAULT_CLIENT,
): CriticalFn {
  const hrefs = stylesheetsOf(
    readFileSync(join(clientDir, "index.html"), "utf8"),
  );
  const links = hrefs
    .map((href) => `<link rel="stylesheet" href="${href}">`)
    .join("");
  const valued = selectedAttributes(
    hrefs.map((href) => readFileSync(join(clientDir, href), "utf8")).join("\n"),
  );
  const known = new Map<string, string>();
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
    const key = createHash("sha256")
      .update(shapeOf(markup, valued))
      .digest("base64");
    const seen = known.get(key);
    if (seen !== undefined) {
      // Most recently used last: the oldest shapes are the first forgotten.
      known.delete(key);
      known.set(key, seen);
      return seen;
    }
    const html = await inliner.process(
      `<!doctype html><html><head>${links}</head><body><div id="root">${markup}</div></body></html>`,
    );
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    known.set(key, css);
    if (known.size > MAX_SHAPES) {
      const oldest = known.keys().next().value;
      if (oldest !== undefined) known.delete(oldest);
    }
    return css;
  };
}
