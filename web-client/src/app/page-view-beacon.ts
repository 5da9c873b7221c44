import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { api } from "@/lib/api-client";

const TAB_KEY = "agora-tab";

/**
 * This tab's marker: random, kept in the tab's `sessionStorage` (a reload
 * keeps it, another tab or device has its own; no cookie, nothing that
 * identifies the reader). Null where storage is refused: the server then
 * folds reloads by address and browser.
 */
export function tabMarker(): string | null {
  try {
    let tab = window.sessionStorage.getItem(TAB_KEY);
    if (!tab) {
      // getRandomValues works on plain http too (randomUUID needs https).
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      tab = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      window.sessionStorage.setItem(TAB_KEY, tab);
    }
    return tab;
  } catch {
    return null;
  }
}

/**
 * Counts page views: the page loaded, then each client-side navigation, with
 * the tab's marker, so every reader counts (a class on one school address
 * too) and only reloads of the same tab are folded. The server applies the
 * rules (pages that exist, robots, reloads); dashboards are never views.
 */
export function usePageViewBeacon(): void {
  const [pathname] = useLocation();
  const previous = useRef<string | null>(null);

  useEffect(() => {
    const changed = previous.current !== pathname;
    previous.current = pathname;
    if (!changed || pathname.startsWith("/dashboard")) return;
    const tab = tabMarker();
    // Fire and forget: a lost view must never disturb the reader.
    api
      .POST("/v1/views", {
        body: tab ? { path: pathname, tab } : { path: pathname },
      })
      .catch(() => {});
  }, [pathname]);
}
