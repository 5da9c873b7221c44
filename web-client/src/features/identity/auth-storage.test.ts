import { describe, expect, it } from "vitest";
import {
  AUTH_STORAGE_KEY,
  parseStoredUser,
  readStoredUser,
  serializeUser,
  writeStoredUser,
} from "./auth-storage";

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const WRITER = { id: "u1", name: "Maya Okafor", role: "writer" } as const;

describe("parseStoredUser", () => {
  it("reads a well-formed entry", () => {
    expect(parseStoredUser(JSON.stringify(WRITER))).toEqual(WRITER);
  });

  it("keeps only id, name and role", () => {
    const raw = JSON.stringify({ ...WRITER, access_key: "secret", extra: 1 });
    expect(parseStoredUser(raw)).toEqual(WRITER);
  });

  it.each([
    ["nothing stored", null],
    ["not JSON", "{oops"],
    ["JSON null", "null"],
    ["a string", '"writer"'],
    ["an array", "[]"],
    ["no id", JSON.stringify({ name: "A", role: "writer" })],
    ["an empty id", JSON.stringify({ id: "", name: "A", role: "writer" })],
    ["a numeric id", JSON.stringify({ id: 7, name: "A", role: "writer" })],
    ["no name", JSON.stringify({ id: "u1", role: "writer" })],
    ["an unknown role", JSON.stringify({ id: "u1", name: "A", role: "boss" })],
  ])("rejects %s", (_, raw) => {
    expect(parseStoredUser(raw)).toBeNull();
  });
});

describe("serializeUser", () => {
  it("never stores extra fields such as a key", () => {
    const user = { ...WRITER, access_key: "secret" };
    expect(JSON.parse(serializeUser(user))).toEqual(WRITER);
  });
});

describe("readStoredUser / writeStoredUser", () => {
  it("discards a corrupt entry", () => {
    const storage = memoryStorage({ [AUTH_STORAGE_KEY]: "{oops" });
    expect(readStoredUser(storage)).toBeNull();
    expect(storage.items.has(AUTH_STORAGE_KEY)).toBe(false);
  });

  it("round-trips a user and clears it", () => {
    const storage = memoryStorage();
    writeStoredUser(storage, { ...WRITER, access_key: "k" } as typeof WRITER);
    expect(storage.items.get(AUTH_STORAGE_KEY)).toBe(JSON.stringify(WRITER));
    expect(readStoredUser(storage)).toEqual(WRITER);
    writeStoredUser(storage, null);
    expect(storage.items.has(AUTH_STORAGE_KEY)).toBe(false);
  });

  it("survives a storage that throws", () => {
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    };
    expect(readStoredUser(broken)).toBeNull();
    expect(() => writeStoredUser(broken, WRITER)).not.toThrow();
  });
});
