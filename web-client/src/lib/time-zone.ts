import { useSyncExternalStore } from "react";

const subscribe = () => () => {};
const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const serverZone = () => "UTC";

/**
 * The zone to format dates in: "UTC" on the server and during hydration (so
 * the markup matches), the reader's own zone right after.
 */
export function useDisplayTimeZone(): string {
  return useSyncExternalStore(subscribe, localZone, serverZone);
}
