import { useQueryClient } from "@tanstack/react-query";
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
import {
  changeUser,
  createExpiry,
  createStoredUser,
  followStorage,
  sessionQuery,
  sessionState,
} from "@/features/identity/session-store";
import { useQuery } from "@/lib/use-query";

/**
 * Keeps the signed-in staff member (spec §4 "Login state"). The server render
 * and hydration know no one; the browser then restores the stored entry and
 * confirms it with GET /v1/me (a query). Without a stored entry nobody is
 * asked: readers never pay for the staff check.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [store] = useState(() => createStoredUser(() => window.localStorage));
  const stored = useSyncExternalStore(
    store.subscribe,
    store.getSnapshot,
    store.getServerSnapshot,
  );
  const me = useQuery(sessionQuery(store, fetchMe, stored));
  const { user, loading } = sessionState(stored, me.data);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === AUTH_STORAGE_KEY || event.key === null) {
        followStorage(queryClient, store);
      }
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [queryClient, store]);

  // Stable functions, so that effects depending on them do not re-run when
  // the user changes.
  const [expiry] = useState(() =>
    createExpiry(() => changeUser(queryClient, store, null)),
  );
  const login = useCallback<Session["login"]>(
    async (accessKey) => {
      const outcome = await signIn(accessKey);
      if (outcome.ok) {
        expiry.signedIn();
        changeUser(queryClient, store, outcome.user);
      }
      return outcome;
    },
    [queryClient, store, expiry],
  );
  const logout = useCallback(async () => {
    changeUser(queryClient, store, null);
    await signOut();
  }, [queryClient, store]);
  const { expire, hold } = expiry;

  const session = useMemo<Session>(
    () => ({ user, loading, login, logout, expire, hold }),
    [user, loading, login, logout, expire, hold],
  );
  return <SessionContext value={session}>{children}</SessionContext>;
}
