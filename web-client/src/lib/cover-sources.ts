/** The widths the server stores beside every uploaded cover (`COVER_WIDTHS` in media). */
export const COVER_WIDTHS = [400, 800, 1200] as const;

/** An uploaded cover's address: `/media/covers/{id}.jpg` or `.png`. */
const UPLOADED = /^(\/media\/covers\/[A-Za-z0-9_-]+)\.(?:jpg|png)$/;

/**
 * The `srcset` of an uploaded cover's WebP width copies, or `null` for any
 * other picture (an SVG, an address elsewhere), which is shown as it is.
 */
export function coverSrcSet(src: string | null | undefined): string | null {
  const match = src ? UPLOADED.exec(src) : null;
  if (!match) return null;
  const stem = match[1];
  return COVER_WIDTHS.map((w) => `${stem}.w${w}.webp ${w}w`).join(", ");
}
