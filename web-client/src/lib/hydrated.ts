import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False on the server and while the page hydrates, true once scripts run.
 * Parts that only make sense with JavaScript (showing a section when a box
 * is ticked) show everything until then, so the plain HTML page is complete.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
