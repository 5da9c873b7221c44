/**
 * Where the sign-in page sends a staff member once signed in, besides their
 * dashboard: a staff download the team's email linked to (`?next=`), on this
 * site only. Anything else is ignored.
 */
export function nextDownload(search: string): string | null {
  const next = new URLSearchParams(search).get("next");
  return next !== null && next.startsWith("/api/v1/staff/") ? next : null;
}
