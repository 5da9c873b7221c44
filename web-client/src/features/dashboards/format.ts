/** "Nov 3" for a local calendar date "2026-11-03" (no time zone shift). */
export function dayLabel(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return date;
  const [, year, month, day] = match;
  const noon = new Date(
    Date.UTC(Number(year), Number(month) - 1, Number(day), 12),
  );
  return new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  }).format(noon);
}

/** Megabytes with one decimal, for file sizes ("2.4 MB"). */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A PDF by its name or declared type; the server still checks the content. */
export function looksLikePdf(name: string, type: string): boolean {
  return type === "application/pdf" || /\.pdf$/i.test(name);
}
