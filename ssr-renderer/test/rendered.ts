import { CSS_BYTES, splitRendered } from "../src/app.js";

/** A render's answer as the app reads it: the page's CSS and its markup. */
export async function rendered(
  r: Response,
): Promise<{ html: string; css: string }> {
  if (!r.headers.get("content-type")?.startsWith("text/html")) {
    throw new Error(`a render answered ${r.headers.get("content-type")}`);
  }
  return splitRendered(
    Buffer.from(await r.arrayBuffer()),
    r.headers.get(CSS_BYTES),
  );
}
