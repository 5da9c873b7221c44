import type { StaffUser } from "@/lib/session";
import type { MeResult } from "@/features/identity/api/session";
import { readStoredUser, writeStoredUser } from "./auth-storage";

export interface SessionState {
  user: StaffUser | null;
  /** On while a stored user waits for the server's confirmation. */
  loading: boolean;
}

type Store = Parameters<typeof readStoredUser>[0];

interface Deps {
  storage: () => Store;
  fetchMe: () => Promise<MeResult>;
}

/** What the server render and hydration see: nobody known yet. */
const UNKNOWN: SessionState = { user: null, loading: true };

/**
 * The signed-in user as an external store for `useSyncExternalStore`: the
 * server snapshot knows no one (so the markup hydrates), the browser's reads
 * the stored entry and, on the first subscription, confirms it with /v1/me.
 */
export function createSessionStore({ storage, fetchMe }: Deps) {
  let state: SessionState | null = null;
  let confirming = false;
  // Bumped by every change so that a slower /me answer cannot undo a sign-in
  // or sign-out made meanwhile.
  let generation = 0;
  const listeners = new Set<() => void>();

  function set(next: SessionState) {
    state = next;
    for (const listener of listeners) listener();
  }

  function getSnapshot(): SessionState {
    if (state === null) {
      const user = readStoredUser(storage());
      state = { user, loading: user !== null };
    }
    return state;
  }

  async function confirm(stored: StaffUser) {
    confirming = true;
    const started = generation;
    const me = await fetchMe();
    confirming = false;
    if (generation !== started) return;
    if (me.kind === "user") setUser(me.user);
    else if (me.kind === "signed_out") setUser(null);
    // Server unreachable: keep the stored user; staff calls will tell.
    else set({ user: stored, loading: false });
  }

  function subscribe(listener: () => void): () => void {
    listeners.add(listener);
    const now = getSnapshot();
    if (now.loading && now.user && !confirming) void confirm(now.user);
    return () => listeners.delete(listener);
  }

  /** Signs in (a user) or out (`null`) here and in storage. */
  function setUser(user: StaffUser | null) {
    generation += 1;
    writeStoredUser(storage(), user);
    set({ user, loading: false });
  }

  /** Another tab signed in or out. */
  function reloadFromStorage() {
    generation += 1;
    set({ user: readStoredUser(storage()), loading: false });
  }

  return {
    getSnapshot,
    getServerSnapshot: () => UNKNOWN,
    subscribe,
    setUser,
    reloadFromStorage,
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
