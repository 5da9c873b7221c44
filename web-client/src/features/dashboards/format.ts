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

/** A file size: "2.4 MB", or "310 KB" below a megabyte. */
export function formatFileSize(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${mb.toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** A PDF by its name or declared type; the server still checks the content. */
export function looksLikePdf(name: string, type: string): boolean {
  return type === "application/pdf" || /\.pdf$/i.test(name);
}
