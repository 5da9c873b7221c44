import { CSS_BYTES } from "../src/app.js";

/**
 * A render's answer read back: its body is the page's CSS then its markup, `CSS_BYTES`
 * saying where the CSS ends.
 */
export function splitRendered(
  body: Buffer,
  cssBytes: string | null,
): { html: string; css: string } {
  const at = Number(cssBytes);
  if (
    cssBytes === null ||
    !Number.isInteger(at) ||
    at < 0 ||
    at > body.length
  ) {
    throw new Error(`a render's answer without a valid ${CSS_BYTES}`);
  }
  return {
    css: body.subarray(0, at).toString("utf8"),
    html: body.subarray(at).toString("utf8"),
  };
}

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
