// Dates are assembled from Intl parts rather than taken from `format()`, because
// engines disagree on separators (" at ", narrow no-break spaces before "AM").
// The server and the browser must produce byte-identical text for hydration.

type Parts = Partial<Record<Intl.DateTimeFormatPartTypes, string>>;

// Making a formatter costs far more than using one (a page of cards formats a dozen
// dates): each is made once per kind of date and time zone, and kept.
const formatters = new Map<string, Intl.DateTimeFormat>();
// And using one costs more than looking its answer up: the server renders the same few dates
// (the newest cards) on page after page. Answers are kept up to a bound, then forgotten.
const answers = new Map<string, Readonly<Parts> | null>();
const MAX_ANSWERS = 5_000;

function parts(
  iso: string,
  timeZone: string,
  kind: string,
  options: Intl.DateTimeFormatOptions,
): Readonly<Parts> | null {
  const answer = `${kind}|${timeZone}|${iso}`;
  const known = answers.get(answer);
  if (known !== undefined) return known;
  const found = format(iso, timeZone, kind, options);
  if (answers.size >= MAX_ANSWERS) answers.clear();
  answers.set(answer, found);
  return found;
}

function format(
  iso: string,
  timeZone: string,
  kind: string,
  options: Intl.DateTimeFormatOptions,
): Parts | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const key = `${kind}|${timeZone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
    formatters.set(key, formatter);
  }
  const out: Parts = {};
  for (const part of formatter.formatToParts(date)) out[part.type] = part.value;
  return out;
}

/** "Nov 22, 2026" — the article card date. */
export function formatShortDate(iso: string, timeZone = "UTC"): string {
  const p = parts(iso, timeZone, "short", {
    year: "numeric",
    month: "short",
    day: "numeric",
  });
  return p ? `${p.month} ${p.day}, ${p.year}` : "";
}

/** "November 22, 2026 at 03:06 AM UTC" — the article page date. */
export function formatLongDateTime(iso: string, timeZone = "UTC"): string {
  const p = parts(iso, timeZone, "long", {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hour12: true,
    timeZoneName: "short",
  });
  if (!p) return "";
  return `${p.month} ${p.day}, ${p.year} at ${p.hour}:${p.minute} ${p.dayPeriod} ${p.timeZoneName}`;
}
