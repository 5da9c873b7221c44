import { beforeEach, describe, expect, it } from "vitest";
import { formFromArticle } from "./article-form";
import {
  clearDraft,
  draftKey,
  draftToOffer,
  readDraft,
  writeDraft,
} from "./local-draft";

class MemoryStorage {
  private items = new Map<string, string>();
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
}

describe("local drafts", () => {
  beforeEach(() => {
    (globalThis as { window?: unknown }).window = {
      localStorage: new MemoryStorage(),
    };
  });

  it("keeps a draft per staff member and article", () => {
    expect(draftKey("u1", null)).not.toBe(draftKey("u2", null));
    expect(draftKey("u1", "a")).not.toBe(draftKey("u1", null));
  });

  it("offers back only text that differs from what is saved", () => {
    const saved = formFromArticle(null);
    const key = draftKey("u1", null);
    expect(draftToOffer(key, saved)).toBeNull();
    writeDraft(key, saved, 1);
    expect(draftToOffer(key, saved)).toBeNull();
    const typed = { ...saved, title: "Unsaved title" };
    writeDraft(key, typed, 42);
    expect(draftToOffer(key, saved)).toEqual({ form: typed, at: 42 });
    clearDraft(key);
    expect(readDraft(key)).toBeNull();
  });

  it("ignores what it cannot read", () => {
    const key = draftKey("u1", "a");
    (window as unknown as { localStorage: MemoryStorage }).localStorage.setItem(
      key,
      "{not json",
    );
    expect(readDraft(key)).toBeNull();
  });
});
