/**
 * The history state of an address change within a page (a dashboard's editor
 * opening or closing): the page stays where it is, focus and scroll included.
 * Pass it as `navigate(to, { state: IN_PAGE })`.
 */
export const IN_PAGE = { inPage: true } as const;

export function isInPage(state: unknown): boolean {
  return (
    typeof state === "object" &&
    state !== null &&
    (state as { inPage?: unknown }).inPage === true
  );
}
