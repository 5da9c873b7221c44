import { createContext, useContext } from "react";

/**
 * Markup the server renders once and reuses across pages, by what it depends
 * on (see `entry-server.tsx`). In the browser there is none: everything
 * renders as usual, and hydrates against the same HTML.
 */
export interface KeptMarkup {
  /**
   * What goes inside the site's `<header>` on a page of the section whose
   * link is `current`, for a reader signed in or not.
   */
  header(current: string | undefined, reader: boolean): string;
  /** What goes inside the site's `<footer>`. */
  footer: string;
}

export const KeptMarkupContext = createContext<KeptMarkup | null>(null);

/** The server's kept markup, or null (in the browser, or when not kept). */
export function useKeptMarkup(): KeptMarkup | null {
  return useContext(KeptMarkupContext);
}
