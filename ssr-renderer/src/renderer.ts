import { isAbsolute, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** web-client's server entry: `render(url, data)` → markup for `#root`. */
export type RenderFn = (url: string, data: unknown) => string;

// Located from this file (in dist/), not from the working directory.
const DEFAULT_ENTRY = fileURLToPath(
  new URL("../../web-client/dist/server/entry-server.js", import.meta.url),
);

/** Imports the built server entry; `SSR_ENTRY` may point elsewhere. */
export async function loadRenderer(
  entry = process.env.SSR_ENTRY,
): Promise<RenderFn> {
  const path = entry
    ? isAbsolute(entry)
      ? entry
      : resolve(entry)
    : DEFAULT_ENTRY;
  const mod: unknown = await import(pathToFileURL(path).href);
  const render = (mod as { render?: unknown }).render;
  if (typeof render !== "function") {
    throw new Error(`${path} does not export a render function`);
  }
  return render as RenderFn;
}
