import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Finds the CSS a page's markup needs, so that it can be inlined in the page: `url` and
 * `status` say which kind of page it is (see `pageGroup`).
 */
export type CriticalFn = (
  markup: string,
  url?: string,
  status?: number,
) => Promise<string>;

// Located from this file (in dist/), not from the working directory.
const DEFAULT_CLIENT = fileURLToPath(
  new URL("../../web-client/dist/client/", import.meta.url),
);
/** What the build found for each kind of page (`npm run build` writes it: precompute.ts). */
export const DEFAULT_PRECOMPUTED = fileURLToPath(
  new URL("./critical.json", import.meta.url),
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
const WHOLE_TAG = /<[a-zA-Z][^>]*>/;
const TAG_PARTS = /^<([a-zA-Z][\w-]*)([^>]*)>$/;
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

/** The shape of one tag (`<a class="x" href="…">`): see `shapesOf`. */
function shapeOfTag(
  name: string,
  attrs: string,
  names: string[],
  valued: Set<string>,
): string {
  let shape = name.toLowerCase();
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
  return shape;
}

/** Tags remembered with their shape, per set of valued attributes. */
const MAX_TAGS = 20_000;
interface Shapes {
  /** The attributes looked for in a tag, in order. */
  names: string[];
  /** Each tag as written, with its shape. */
  seen: Map<string, string>;
}
const tagShapes = new WeakMap<Set<string>, Shapes>();

/**
 * What a stylesheet can tell apart in `markup`: each kind of element, as its tag, classes,
 * the values of the attributes in `valued`, and whether it has the attributes
 * pseudo-classes depend on. Two pages with the same shape need the same CSS (short of
 * selectors on nesting, which the site's stylesheet does not rely on to show a page);
 * text, links and images do not change it. Only those attributes are looked for in each
 * tag (React writes class as `class="…"`), and a tag written the same way as one seen
 * before (most of a page's, and every tag of the header, footer and cards) is not read again.
 */
export function shapesOf(markup: string, valued: Set<string>): Set<string> {
  const shapes = new Set<string>();
  let known = tagShapes.get(valued);
  if (!known) {
    known = {
      names: [...new Set([...PSEUDO_CLASS_ATTRIBUTES, ...valued])].sort(),
      seen: new Map(),
    };
    tagShapes.set(valued, known);
  }
  const { names, seen } = known;
  // Each tag as written is looked up first; only a tag not seen before is taken apart.
  const tags = new RegExp(WHOLE_TAG.source, "g");
  for (let m = tags.exec(markup); m !== null; m = tags.exec(markup)) {
    const written = m[0];
    let shape = seen.get(written);
    if (shape === undefined) {
      const parts = TAG_PARTS.exec(written);
      shape = shapeOfTag(parts?.[1] ?? "", parts?.[2] ?? "", names, valued);
      if (seen.size >= MAX_TAGS) seen.clear();
      seen.set(written, shape);
    }
    shapes.add(shape);
  }
  return shapes;
}

/** `shapesOf` as one string: equal for two pages of the same shape. */
export function shapeOf(markup: string, valued: Set<string>): string {
  return shapeKey(shapesOf(markup, valued));
}

/** Shapes as one string, in a fixed order. */
function shapeKey(shapes: Set<string>): string {
  return [...shapes].sort().join("\n");
}

/**
 * The kind of page `url` is, as the build groups its samples: a page that is not there, an
 * article, an issue of the magazine, a category's or a contributor's page, or else the page's
 * own path.
 */
export function pageGroup(url: string, status = 200): string {
  if (status === 404) return "404";
  const path = (url.split(/[?#]/)[0] ?? "/")
    .toLowerCase()
    .replace(/(.)\/$/, "$1");
  const item = /^\/(article|magazine|category|author)\/[^/]+$/.exec(path);
  return item ? `/${item[1]}/*` : path;
}

/** What the build found (precompute.ts): for each kind of page, its CSS and shapes. */
export interface Precomputed {
  /** The stylesheets it was found in: a client built since then is not trusted. */
  stylesheets: string[];
  groups: Record<string, { css: string; shapes: string[] }>;
}

/** Reads the build's findings; none when absent, unreadable or for other stylesheets. */
function readPrecomputed(
  path: string,
  hrefs: string[],
): Map<string, { css: string; shapes: Set<string> }> {
  const groups = new Map<string, { css: string; shapes: Set<string> }>();
  let found: Precomputed;
  try {
    found = JSON.parse(readFileSync(path, "utf8")) as Precomputed;
  } catch {
    return groups;
  }
  if (found.stylesheets.join("\n") !== hrefs.join("\n")) {
    console.warn(
      `${path} is for other stylesheets than the client's: CSS is found as pages are rendered`,
    );
    return groups;
  }
  for (const [name, group] of Object.entries(found.groups)) {
    groups.set(name, { css: group.css, shapes: new Set(group.shapes) });
  }
  return groups;
}

/**
 * The stylesheets the web client built in `clientDir` links, and the attributes they select
 * on (what tells page shapes apart: see `shapesOf`).
 */
export function readClient(clientDir: string): {
  hrefs: string[];
  valued: Set<string>;
} {
  const hrefs = stylesheetsOf(
    readFileSync(join(clientDir, "index.html"), "utf8"),
  );
  const valued = selectedAttributes(
    hrefs.map((href) => readFileSync(join(clientDir, href), "utf8")).join("\n"),
  );
  return { hrefs, valued };
}

/** Shapes remembered at most (each with its CSS, a few kilobytes). */
const MAX_SHAPES = 256;

/**
 * The rules of the template's stylesheets that apply to the elements in `markup` (and the
 * media queries, keyframes and custom properties they use), minified. The rest of the
 * stylesheet still loads, later; the page paints without waiting for it.
 *
 * The build works them out for each kind of page from the web client's samples
 * (`precomputed`, see precompute.ts): a page none of whose elements is new to its kind gets
 * them at once. Any other page's are found as it is rendered (by extract.ts, loaded the first
 * time one is needed) and kept per page shape (see `shapeOf`): the pages of one shape share
 * them. `SSR_CLIENT_DIR` may point at another build of the web client, `SSR_CRITICAL` at
 * other findings.
 */
export function loadCritical(
  clientDir = process.env.SSR_CLIENT_DIR ?? DEFAULT_CLIENT,
  precomputed = process.env.SSR_CRITICAL ?? DEFAULT_PRECOMPUTED,
): CriticalFn {
  const { hrefs, valued } = readClient(clientDir);
  const groups = readPrecomputed(precomputed, hrefs);
  const known = new Map<string, string>();
  // Kinds of page said to be missing from the build's findings (once each).
  const unseen = new Set<string>();
  let extract: Promise<(markup: string) => Promise<string>> | undefined;
  return async (markup, url = "/", status = 200) => {
    if (hrefs.length === 0) return "";
    const shapes = shapesOf(markup, valued);
    const kind = pageGroup(url, status);
    const group = groups.get(kind);
    if (group && [...shapes].every((shape) => group.shapes.has(shape))) {
      return group.css;
    }
    if (!unseen.has(kind)) {
      unseen.add(kind);
      const lacking = group
        ? [...shapes].filter((shape) => !group.shapes.has(shape))
        : ["(no sample of this kind)"];
      console.warn(
        `critical CSS: a ${kind} page with elements the build's samples lack (web-client/src/entry-samples.ts); found as it is rendered: ${lacking.slice(0, 8).join(" ")}`,
      );
    }
    const key = createHash("sha256").update(shapeKey(shapes)).digest("base64");
    const seen = known.get(key);
    if (seen !== undefined) {
      // Most recently used last: the oldest shapes are the first forgotten.
      known.delete(key);
      known.set(key, seen);
      return seen;
    }
    extract ??= import("./extract.js").then((m) =>
      m.extractor(clientDir, hrefs),
    );
    const css = await (await extract)(markup);
    known.set(key, css);
    if (known.size > MAX_SHAPES) {
      const oldest = known.keys().next().value;
      if (oldest !== undefined) known.delete(oldest);
    }
    return css;
  };
}
