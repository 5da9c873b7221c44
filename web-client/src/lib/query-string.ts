export type QueryEntry = readonly [key: string, value: string];

/**
 * Serialises entries as `?a=1&b=2` with `encodeURIComponent` (spaces as %20),
 * or "" when there are none. Keys may repeat.
 */
export function toSearch(entries: readonly QueryEntry[]): string {
  if (entries.length === 0) return "";
  return `?${entries
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&")}`;
}

/** Splits "/path?x=1" into its path and its search string (without "?"). */
export function splitUrl(url: string): { pathname: string; search: string } {
  const hash = url.indexOf("#");
  const clean = hash === -1 ? url : url.slice(0, hash);
  const q = clean.indexOf("?");
  return q === -1
    ? { pathname: clean || "/", search: "" }
    : { pathname: clean.slice(0, q) || "/", search: clean.slice(q + 1) };
}
