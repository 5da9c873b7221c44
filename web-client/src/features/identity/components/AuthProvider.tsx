import {
  useCallback,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from "react";
import { SessionContext, type Session } from "@/lib/session";
import { fetchMe, signIn, signOut } from "@/features/identity/api/session";
import { AUTH_STORAGE_KEY } from "@/features/identity/auth-storage";
import { createSessionStore } from "@/features/identity/session-store";

/**
 * Keeps the signed-in staff member (spec §4 "Login state"). The server render
 * and hydration know no one; the browser then restores the stored entry and
 * confirms it with GET /v1/me. Without a stored entry nobody is asked: readers
 * never pay for the staff check.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() =>
    createSessionStore({ storage: () => window.localStorage, fetchMe }),
  );
  const state = useSyncExternalStore(
    store.subscribe,
    store.getSnapshot,
    store.getServerSnapshot,
  );

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === AUTH_STORAGE_KEY || event.key === null) {
        store.reloadFromStorage();
      }
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [store]);

  // Stable functions, so that effects depending on them do not re-run when
  // the user changes.
  const login = useCallback<Session["login"]>(
    async (accessKey) => {
      const outcome = await signIn(accessKey);
      if (outcome.ok) store.setUser(outcome.user);
      return outcome;
    },
    [store],
  );
  const logout = useCallback(async () => {
    store.setUser(null);
    await signOut();
  }, [store]);
  const expire = useCallback(() => store.setUser(null), [store]);

  const session = useMemo<Session>(
    () => ({ ...state, login, logout, expire }),
    [state, login, logout, expire],
  );
  return <SessionContext value={session}>{children}</SessionContext>;
}
