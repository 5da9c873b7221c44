import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadEntry } from "../src/renderer.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0))
    rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A CommonJS entry as the web client's build writes one: `render`, and `ready`. */
function entryFile(body = "<main>${url}</main>"): string {
  const path = join(tempDir("ssr-entry-"), "entry-server.cjs");
  writeFileSync(
    path,
    `"use strict";
const { createHash } = require("node:crypto");
let loaded = false;
exports.ready = Promise.resolve().then(() => { loaded = true; });
exports.render = (url) => {
  if (!loaded) throw new Error("rendered before ready");
  return \`${body}\` + createHash("sha1").update(url).digest("hex").length;
};
`,
  );
  return path;
}

describe("the server entry's code cache", () => {
  it("is written after renders and used by the next start", async () => {
    const entry = entryFile();
    const cache = tempDir("ssr-cache-");
    const first = await loadEntry(entry, cache);
    expect(first.render("/about", {})).toBe("<main>/about</main>40");
    expect(first.keep).toBeDefined();
    first.keep?.();
    expect(readdirSync(cache)).toHaveLength(1);

    const second = await loadEntry(entry, cache);
    expect(second.keep).toBeUndefined();
    expect(second.render("/x", {})).toBe("<main>/x</main>40");
  });

  it("is not another build's: a changed entry compiles and keeps its own", async () => {
    const cache = tempDir("ssr-cache-");
    const old = await loadEntry(entryFile("<old>${url}</old>"), cache);
    old.keep?.();
    const rebuilt = await loadEntry(entryFile("<new>${url}</new>"), cache);
    expect(rebuilt.keep).toBeDefined();
    expect(rebuilt.render("/a", {})).toBe("<new>/a</new>40");
  });

  it("a damaged cache is compiled past, never rendered from", async () => {
    const entry = entryFile();
    const cache = tempDir("ssr-cache-");
    const first = await loadEntry(entry, cache);
    first.keep?.();
    const [file] = readdirSync(cache);
    const path = join(cache, file ?? "");
    const bytes = readFileSync(path);
    bytes.fill(7, 16, 64);
    writeFileSync(path, bytes);

    const again = await loadEntry(entry, cache);
    expect(again.render("/b", {})).toBe("<main>/b</main>40");
    // Refused by V8, so written anew.
    expect(again.keep).toBeDefined();
  });

  it("without a folder for it (SSR_CODE_CACHE empty), nothing is kept", async () => {
    const loaded = await loadEntry(entryFile(), "");
    expect(loaded.keep).toBeUndefined();
    expect(loaded.render("/c", {})).toBe("<main>/c</main>40");
  });

  it("a folder it cannot write to leaves rendering as it was", async () => {
    const entry = entryFile();
    // A file where the folder would be: mkdir fails.
    const blocker = join(tempDir("ssr-cache-"), "not-a-dir");
    writeFileSync(blocker, "");
    const loaded = await loadEntry(entry, join(blocker, "cache"));
    expect(() => loaded.keep?.()).not.toThrow();
    expect(loaded.render("/d", {})).toBe("<main>/d</main>40");
  });
});
