import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { api } from "@/lib/api-client";

/**
 * Counts client-side navigations as page views. The first page of a visit was
 * counted by the server when it answered the request, so only later paths are
 * sent; the server applies the counting rules (dashboards, robots, reloads).
 */
export function usePageViewBeacon(): void {
  const [pathname] = useLocation();
  const previous = useRef<string | null>(null);

  useEffect(() => {
    const first = previous.current === null;
    const changed = previous.current !== pathname;
    previous.current = pathname;
    if (first || !changed || pathname.startsWith("/dashboard")) return;
    // Fire and forget: a lost view must never disturb the reader.
    api.POST("/v1/views", { body: { path: pathname } }).catch(() => {});
  }, [pathname]);
}
