import { describe, expect, it } from "vitest";
import type { MeResult } from "./api/session";
import { AUTH_STORAGE_KEY } from "./auth-storage";
import { createSessionStore } from "./session-store";

const WRITER = { id: "u1", name: "Maya", role: "writer" } as const;

function setup(stored: string | null, me: MeResult) {
  const items = new Map<string, string>();
  if (stored !== null) items.set(AUTH_STORAGE_KEY, stored);
  const storage = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
  let answer: (value: MeResult) => void = () => {};
  let calls = 0;
  const store = createSessionStore({
    storage: () => storage,
    fetchMe: () => {
      calls += 1;
      return new Promise<MeResult>((resolve) => {
        answer = resolve;
      });
    },
  });
  return {
    store,
    items,
    calls: () => calls,
    answer: async () => {
      answer(me);
      await Promise.resolve();
      await Promise.resolve();
    },
  };
}

describe("session store", () => {
  it("knows no one on the server", () => {
    const { store } = setup(JSON.stringify(WRITER), { kind: "signed_out" });
    expect(store.getServerSnapshot()).toEqual({ user: null, loading: true });
  });

  it("is signed out at once, without asking the server, when nothing is stored", () => {
    const { store, calls } = setup(null, { kind: "signed_out" });
    store.subscribe(() => {});
    expect(store.getSnapshot()).toEqual({ user: null, loading: false });
    expect(calls()).toBe(0);
  });

  it("restores a stored user and stops loading once /me confirms", async () => {
    const t = setup(JSON.stringify(WRITER), { kind: "user", user: WRITER });
    t.store.subscribe(() => {});
    expect(t.store.getSnapshot()).toEqual({ user: WRITER, loading: true });
    await t.answer();
    expect(t.store.getSnapshot()).toEqual({ user: WRITER, loading: false });
    expect(t.calls()).toBe(1);
  });

  it("clears the entry and the user when /me says 401", async () => {
    const t = setup(JSON.stringify(WRITER), { kind: "signed_out" });
    t.store.subscribe(() => {});
    await t.answer();
    expect(t.store.getSnapshot()).toEqual({ user: null, loading: false });
    expect(t.items.has(AUTH_STORAGE_KEY)).toBe(false);
  });

  it("keeps the stored user when the server cannot be reached", async () => {
    const t = setup(JSON.stringify(WRITER), { kind: "unknown" });
    t.store.subscribe(() => {});
    await t.answer();
    expect(t.store.getSnapshot()).toEqual({ user: WRITER, loading: false });
  });

  it("discards a corrupt entry", () => {
    const t = setup("{not json", { kind: "signed_out" });
    expect(t.store.getSnapshot()).toEqual({ user: null, loading: false });
    expect(t.items.has(AUTH_STORAGE_KEY)).toBe(false);
  });

  it("does not let a late /me answer undo a sign-out", async () => {
    const t = setup(JSON.stringify(WRITER), { kind: "user", user: WRITER });
    t.store.subscribe(() => {});
    t.store.setUser(null);
    await t.answer();
    expect(t.store.getSnapshot()).toEqual({ user: null, loading: false });
  });

  it("stores only id, name and role on sign-in and notifies", () => {
    const t = setup(null, { kind: "signed_out" });
    let notified = 0;
    t.store.subscribe(() => (notified += 1));
    t.store.setUser({ ...WRITER, access_key: "k" } as typeof WRITER);
    expect(t.items.get(AUTH_STORAGE_KEY)).toBe(JSON.stringify(WRITER));
    expect(notified).toBe(1);
  });
});
