import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import {
  DEFAULT_PRECOMPUTED,
  pageGroup,
  readClient,
  shapesOf,
  type Precomputed,
} from "./critical.js";
import { extractor } from "./extract.js";
import { loadEntry } from "./renderer.js";

// Run by `npm run build`, after the web client's build: for each kind of page the web
// client's samples show (web-client/src/entry-samples.ts), the CSS its pages need and the
// shapes of their elements, written to dist/critical.json for the renderer to read at start.
// Having rendered them all, it writes the entry's compiled code to the sidecar's code cache,
// so that the first start after a build skips compiling too (`npm run build` runs this with
// the Node flags the app starts the sidecar with: with others, the cache is not for it, and
// the sidecar writes its own).

const client = fileURLToPath(
  new URL("../../web-client/dist/client/", import.meta.url),
);
const samplesEntry = fileURLToPath(
  new URL("../../web-client/dist/samples/entry-samples.cjs", import.meta.url),
);

interface Sample {
  url: string;
  data: Record<string, unknown> & { status?: number };
}

const { render, keep } = await loadEntry();
const { samples } = createRequire(import.meta.url)(samplesEntry) as {
  samples: () => Sample[];
};
const { hrefs, valued } = readClient(client);
const markups = new Map<string, string[]>();
for (const { url, data } of samples()) {
  const group = pageGroup(url, data.status);
  markups.set(group, [...(markups.get(group) ?? []), render(url, data)]);
}
const extract = extractor(client, hrefs);
const found: Precomputed = { stylesheets: hrefs, groups: {} };
for (const [group, pages] of markups) {
  const shapes = new Set<string>();
  for (const page of pages)
    for (const s of shapesOf(page, valued)) shapes.add(s);
  // The rules any of the group's pages needs: found in all of them side by side.
  const css = await extract(pages.join(""));
  found.groups[group] = { css, shapes: [...shapes].sort() };
}
keep?.();
const out = process.argv[2] ?? DEFAULT_PRECOMPUTED;
writeFileSync(out, JSON.stringify(found));
const sizes = Object.values(found.groups).map((g) => g.css.length);
console.log(
  `critical CSS for ${markups.size} kinds of page (${Math.min(...sizes)}-${Math.max(...sizes)} bytes each): ${out}`,
);
