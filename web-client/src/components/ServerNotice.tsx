import { useSyncExternalStore } from "react";
import { isRetrying, subscribeRetrying } from "@/lib/unavailable";

/**
 * Says so while a call waits to be sent again because the server was
 * unavailable for a moment (see `retryCallsWhenUnavailable`).
 */
export function ServerNotice() {
  const retrying = useSyncExternalStore(
    subscribeRetrying,
    isRetrying,
    () => false,
  );
  return (
    <div className="server-notice" role="status" aria-live="polite">
      {retrying ? "Server unavailable, retrying…" : null}
    </div>
  );
}
