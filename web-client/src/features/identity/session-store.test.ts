import { describe, expect, it } from "vitest";
import type { StaffUser } from "@/lib/session";
import { createQueryClient, STAFF_QUERIES } from "@/lib/query-client";
import { mount, settle } from "@/test/query";
import type { MeResult } from "./api/session";
import { AUTH_STORAGE_KEY } from "./auth-storage";
import {
  changeUser,
  createExpiry,
  createStoredUser,
  followStorage,
  sessionQuery,
  sessionState,
} from "./session-store";

const WRITER = { id: "u1", name: "Maya", role: "writer" } as const;
const ADMIN = { id: "u2", name: "Ada", role: "admin" } as const;

/**
 * A page load: storage holding `stored`, a query cache, and GET /v1/me
 * answering `me` when told to (`answer`).
 */
function setup(stored: string | null, me: MeResult) {
  const items = new Map<string, string>();
  if (stored !== null) items.set(AUTH_STORAGE_KEY, stored);
  const storage = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
  const store = createStoredUser(() => storage);
  const queryClient = createQueryClient();
  const pending: ((value: MeResult) => void)[] = [];
  const fetchMe = () =>
    new Promise<MeResult>((resolve) => void pending.push(resolve));

  /** What AuthProvider renders, once mounted in the browser. */
  let session: ReturnType<typeof mount<MeResult, readonly string[]>> | null =
    null;
  const page = {
    store,
    items,
    queryClient,
    calls: () => pending.length,
    /** AuthProvider mounts: reads storage, asks /me if someone is stored. */
    mount() {
      session = mount(
        queryClient,
        sessionQuery(store, fetchMe, store.getSnapshot()),
      );
    },
    state: () => sessionState(store.getSnapshot(), session?.result().data),
    answer: async () => {
      for (const resolve of pending) resolve(me);
      await settle();
    },
  };
  return page;
}

describe("session", () => {
  it("knows no one on the server and while hydrating", () => {
    const { store } = setup(JSON.stringify(WRITER), { kind: "signed_out" });
    expect(store.getServerSnapshot()).toBeUndefined();
    expect(sessionState(undefined, undefined)).toEqual({
      user: null,
      loading: true,
    });
  });

  it("is signed out at once, without asking the server, when nothing is stored", async () => {
    const t = setup(null, { kind: "signed_out" });
    t.mount();
    await settle();
    expect(t.state()).toEqual({ user: null, loading: false });
    expect(t.calls()).toBe(0);
  });

  it("restores a stored user and stops loading once /me confirms", async () => {
    const t = setup(JSON.stringify(WRITER), { kind: "user", user: WRITER });
    t.mount();
    await settle();
    expect(t.state()).toEqual({ user: WRITER, loading: true });
    await t.answer();
    expect(t.state()).toEqual({ user: WRITER, loading: false });
    expect(t.calls()).toBe(1);
  });

  it("takes the server's word for who it is, and stores it", async () => {
    const renamed = { ...WRITER, name: "Maya O." };
    const t = setup(JSON.stringify(WRITER), { kind: "user", user: renamed });
    t.mount();
    await t.answer();
    expect(t.state()).toEqual({ user: renamed, loading: false });
    expect(t.items.get(AUTH_STORAGE_KEY)).toBe(JSON.stringify(renamed));
  });

  it("clears the entry and the user when /me says 401", async () => {
    const t = setup(JSON.stringify(WRITER), { kind: "signed_out" });
    t.mount();
    await t.answer();
    expect(t.state()).toEqual({ user: null, loading: false });
    expect(t.items.has(AUTH_STORAGE_KEY)).toBe(false);
  });

  it("keeps the stored user when the server cannot be reached", async () => {
    const t = setup(JSON.stringify(WRITER), { kind: "unknown" });
    t.mount();
    await t.answer();
    expect(t.state()).toEqual({ user: WRITER, loading: false });
  });

  it("discards a corrupt entry", () => {
    const t = setup("{not json", { kind: "signed_out" });
    expect(t.store.getSnapshot()).toBeNull();
    expect(t.items.has(AUTH_STORAGE_KEY)).toBe(false);
  });

  it("does not let a late /me answer undo a sign-out", async () => {
    const t = setup(JSON.stringify(WRITER), { kind: "user", user: WRITER });
    t.mount();
    await settle();
    changeUser(t.queryClient, t.store, null);
    await t.answer();
    expect(t.state()).toEqual({ user: null, loading: false });
    expect(t.items.has(AUTH_STORAGE_KEY)).toBe(false);
  });

  it("does not let a late /me answer undo a sign-in as someone else", async () => {
    const t = setup(JSON.stringify(WRITER), { kind: "signed_out" });
    t.mount();
    await settle();
    changeUser(t.queryClient, t.store, ADMIN);
    await t.answer();
    expect(t.state()).toEqual({ user: ADMIN, loading: false });
    expect(t.items.get(AUTH_STORAGE_KEY)).toBe(JSON.stringify(ADMIN));
  });

  it("stores only id, name and role on sign-in and notifies", () => {
    const t = setup(null, { kind: "signed_out" });
    let notified = 0;
    t.store.subscribe(() => (notified += 1));
    changeUser(t.queryClient, t.store, {
      ...WRITER,
      access_key: "k",
    } as StaffUser);
    expect(t.items.get(AUTH_STORAGE_KEY)).toBe(JSON.stringify(WRITER));
    expect(notified).toBe(1);
  });

  it("drops the staff data of whoever was signed in, on sign-in and sign-out", () => {
    const t = setup(null, { kind: "signed_out" });
    const cache = t.queryClient;
    cache.setQueryData([STAFF_QUERIES, "articles"], ["a draft"]);
    changeUser(cache, t.store, WRITER);
    expect(cache.getQueryData([STAFF_QUERIES, "articles"])).toBeUndefined();

    cache.setQueryData([STAFF_QUERIES, "articles"], ["a draft"]);
    cache.setQueryData(["content", "article", "s"], { kind: "not_found" });
    changeUser(cache, t.store, null);
    expect(cache.getQueryData([STAFF_QUERIES, "articles"])).toBeUndefined();
    expect(cache.getQueryData(["content", "article", "s"])).toBeDefined();
  });

  it("follows another tab's sign-in without asking the server", async () => {
    const t = setup(null, { kind: "signed_out" });
    t.mount();
    t.items.set(AUTH_STORAGE_KEY, JSON.stringify(ADMIN));
    followStorage(t.queryClient, t.store);
    await settle();
    expect(t.state()).toEqual({ user: ADMIN, loading: false });
    expect(t.calls()).toBe(0);
  });
});

describe("createExpiry", () => {
  function counted() {
    let ended = 0;
    const expiry = createExpiry(() => (ended += 1));
    return { expiry, ended: () => ended };
  }

  it("ends the session at once when nothing holds the page", () => {
    const t = counted();
    t.expiry.expire();
    expect(t.ended()).toBe(1);
  });

  it("waits while an editor holds the page, then ends once when let go", () => {
    const t = counted();
    const first = t.expiry.hold();
    const second = t.expiry.hold();
    t.expiry.expire();
    t.expiry.expire();
    expect(t.ended()).toBe(0);
    first();
    first();
    expect(t.ended()).toBe(0);
    second();
    expect(t.ended()).toBe(1);
    const again = t.expiry.hold();
    again();
    expect(t.ended()).toBe(1);
  });

  it("does not end a session signed in again while held", () => {
    const t = counted();
    const release = t.expiry.hold();
    t.expiry.expire();
    t.expiry.signedIn();
    release();
    expect(t.ended()).toBe(0);
  });
});
