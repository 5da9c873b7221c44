import { useQuery, useQueryClient } from "@tanstack/react-query";
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
  createStoredUser,
  followStorage,
  sessionQuery,
  sessionState,
} from "@/features/identity/session-store";

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
  const login = useCallback<Session["login"]>(
    async (accessKey) => {
      const outcome = await signIn(accessKey);
      if (outcome.ok) changeUser(queryClient, store, outcome.user);
      return outcome;
    },
    [queryClient, store],
  );
  const logout = useCallback(async () => {
    changeUser(queryClient, store, null);
    await signOut();
  }, [queryClient, store]);
  const expire = useCallback(
    () => changeUser(queryClient, store, null),
    [queryClient, store],
  );

  const session = useMemo<Session>(
    () => ({ user, loading, login, logout, expire }),
    [user, loading, login, logout, expire],
  );
  return <SessionContext value={session}>{children}</SessionContext>;
}
