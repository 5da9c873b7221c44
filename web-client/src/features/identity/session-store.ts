import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { STAFF_QUERIES } from "@/lib/query-client";
import type { StaffUser } from "@/lib/session";
import type { MeResult } from "@/features/identity/api/session";
import { sessionKeys } from "@/features/identity/api/keys";
import { readStoredUser, writeStoredUser } from "./auth-storage";

export interface SessionState {
  user: StaffUser | null;
  /** On while a stored user waits for the server's confirmation. */
  loading: boolean;
}

type Store = Parameters<typeof readStoredUser>[0];

/**
 * The user kept in `localStorage`, as an external store for
 * `useSyncExternalStore`: `undefined` (nobody known yet) on the server and
 * while hydrating, so that the markup hydrates; in the browser the stored
 * user or `null`.
 */
export function createStoredUser(storage: () => Store) {
  let user: StaffUser | null | undefined;
  const listeners = new Set<() => void>();

  function set(next: StaffUser | null) {
    user = next;
    for (const listener of listeners) listener();
  }

  return {
    getSnapshot(): StaffUser | null {
      if (user === undefined) user = readStoredUser(storage());
      return user;
    },
    getServerSnapshot: (): undefined => undefined,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Keeps `next` here and in storage (only id, name and role). */
    setUser(next: StaffUser | null) {
      writeStoredUser(storage(), next);
      set(next);
    },
    /** Reads the entry again (another tab changed it). */
    reload() {
      set(readStoredUser(storage()));
    },
  };
}

export type StoredUser = ReturnType<typeof createStoredUser>;

/**
 * GET /v1/me as a query, asked only when a user is stored (readers never pay
 * for the staff check) and once per page load. Its answer updates the stored
 * entry, unless a sign-in or sign-out cancelled it meanwhile.
 */
export function sessionQuery(
  store: StoredUser,
  fetchMe: (signal: AbortSignal) => Promise<MeResult>,
  stored: StaffUser | null | undefined,
) {
  return queryOptions({
    queryKey: sessionKeys.me,
    queryFn: async ({ signal }) => {
      const me = await fetchMe(signal);
      if (!signal.aborted) {
        if (me.kind === "user") store.setUser(me.user);
        else if (me.kind === "signed_out") store.setUser(null);
      }
      return me;
    },
    enabled: stored !== undefined && stored !== null,
    staleTime: Infinity,
    // fetchMe never rejects: an unreachable server is the answer "unknown".
    retry: false,
  });
}

/** The session shown, from the stored user and the server's answer. */
export function sessionState(
  stored: StaffUser | null | undefined,
  me: MeResult | undefined,
): SessionState {
  if (stored === undefined) return { user: null, loading: true };
  if (stored === null) return { user: null, loading: false };
  if (me === undefined) return { user: stored, loading: true };
  if (me.kind === "user") return { user: me.user, loading: false };
  if (me.kind === "signed_out") return { user: null, loading: false };
  // Server unreachable: keep the stored user; staff calls will tell.
  return { user: stored, loading: false };
}

/**
 * The session query holds the answer for `user` (a late answer to an earlier
 * GET /v1/me cannot undo it), and the staff data of whoever was signed in
 * before leaves the cache.
 */
function replaceSession(queryClient: QueryClient, user: StaffUser | null) {
  void queryClient.cancelQueries({ queryKey: sessionKeys.me });
  queryClient.removeQueries({ queryKey: [STAFF_QUERIES] });
  queryClient.setQueryData<MeResult>(
    sessionKeys.me,
    user ? { kind: "user", user } : { kind: "signed_out" },
  );
}

/** Signs in (a user) or out (`null`) here and in storage. */
export function changeUser(
  queryClient: QueryClient,
  store: StoredUser,
  user: StaffUser | null,
): void {
  replaceSession(queryClient, user);
  store.setUser(user);
}

/** Another tab signed in or out: take its word, as stored, without asking. */
export function followStorage(
  queryClient: QueryClient,
  store: StoredUser,
): void {
  store.reload();
  replaceSession(queryClient, store.getSnapshot());
}

/**
 * When a 401 ends the session here. Work on screen that is not saved yet (an
 * open editor) holds the page: a 401 from a list refreshed behind it then
 * waits, and the user stays where their text is (its own save asks them to
 * sign in again, in place). The session ends when the last hold is let go,
 * unless a sign-in came first.
 */
export function createExpiry(end: () => void) {
  let holds = 0;
  let waiting = false;
  return {
    /** A 401 came: end now, or when nothing holds the page any more. */
    expire: (): void => {
      if (holds > 0) waiting = true;
      else end();
    },
    /** Holds the page; the function returned lets go (once). */
    hold: (): (() => void) => {
      holds += 1;
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        holds -= 1;
        if (holds === 0 && waiting) {
          waiting = false;
          end();
        }
      };
    },
    /** Signed in again: an ending that was waiting is off. */
    signedIn: (): void => {
      waiting = false;
    },
  };
}
