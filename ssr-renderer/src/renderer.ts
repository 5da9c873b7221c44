import { createHash } from "node:crypto";
import {
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Script } from "node:vm";
import { message } from "./message.js";

/** web-client's server entry: `render(url, data)` → markup for `#root`. */
export type RenderFn = (url: string, data: unknown) => string;

// Located from this file (in dist/), not from the working directory.
const DEFAULT_ENTRY = fileURLToPath(
  new URL("../../web-client/dist/server/entry-server.cjs", import.meta.url),
);
/** Where compiled code is kept between starts, unless `SSR_CODE_CACHE` says otherwise. */
export const DEFAULT_CODE_CACHE = fileURLToPath(
  new URL("./code-cache/", import.meta.url),
);

/** How long after its first render the entry's compiled code is written down. */
const WARM_MS = 1_000;

/** What a loaded entry exports. */
interface Entry {
  render?: unknown;
  ready?: unknown;
}

/**
 * The code cache of one entry: a file named for the entry's bytes, this Node and the flags
 * it runs with, so that a rebuilt entry, another Node or other flags never read another's.
 * V8 checks its version and flags too, and refuses a cache that does not match.
 */
function cacheFile(dir: string, source: string): string {
  const key = createHash("sha256")
    .update(source)
    .update("\0")
    .update(`${process.version} ${process.arch} ${process.execArgv.join(" ")}`)
    .digest("hex")
    .slice(0, 32);
  return join(dir, `entry-${key}.bin`);
}

/** A cache file is the SHA-256 of its data, then the data. */
const DIGEST_BYTES = 32;

const digest = (data: Uint8Array) => createHash("sha256").update(data).digest();

/**
 * The cache `path` holds, if it is whole: V8 checks whose a cache is (its version, flags and
 * the source's length), not that its bytes are intact.
 */
function readCache(path: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  const data = bytes.subarray(DIGEST_BYTES);
  return bytes.length > DIGEST_BYTES &&
    digest(data).equals(bytes.subarray(0, DIGEST_BYTES))
    ? data
    : undefined;
}

/** Written beside the old one and renamed: a reader never sees half a cache. */
function writeCache(path: string, data: Buffer) {
  const partial = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(partial, Buffer.concat([digest(data), data]));
    renameSync(partial, path);
  } catch (err) {
    // A read-only install: every start compiles, as without a cache.
    try {
      rmSync(partial, { force: true });
    } catch {
      // There was no folder to write it in.
    }
    console.warn(
      `ssr-renderer: cannot keep compiled code in ${dirname(path)}:`,
      message(err),
    );
  }
}

/**
 * Compiles a CommonJS entry with V8's code cache, kept in `cacheDir`: a start with the
 * cache skips parsing and compiling the entry (a megabyte of React and pages) and its first
 * renders run code compiled before. Without a usable cache (the first start after a build,
 * another Node), the entry is compiled as usual and, a second after its first render,
 * its compiled code — what those renders compiled too — is written for the next start.
 */
function loadCommonJs(path: string, cacheDir: string | undefined) {
  const source = readFileSync(path, "utf8");
  const file = cacheDir ? cacheFile(cacheDir, source) : undefined;
  const cachedData = file ? readCache(file) : undefined;
  const script = new Script(Module.wrap(source), {
    filename: path,
    cachedData,
  });
  const init = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: Entry },
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {} as Entry };
  init.call(
    module.exports,
    module.exports,
    createRequire(path),
    module,
    path,
    dirname(path),
  );
  const used = cachedData !== undefined && !script.cachedDataRejected;
  const keep =
    file && !used
      ? () => {
          writeCache(file, script.createCachedData());
        }
      : undefined;
  return { exports: module.exports, keep };
}

/** A loaded entry; `keep` writes its compiled code down, when there is a cache to write. */
export interface LoadedEntry {
  render: RenderFn;
  keep?: () => void;
}

/**
 * Loads the built server entry; `SSR_ENTRY` may point elsewhere, and an ES module (`.js`,
 * `.mjs`) is imported as it is. `SSR_CODE_CACHE` names the folder of the code cache (empty:
 * none).
 */
export async function loadEntry(
  entry = process.env.SSR_ENTRY,
  cacheDir: string | undefined = process.env.SSR_CODE_CACHE ??
    DEFAULT_CODE_CACHE,
): Promise<LoadedEntry> {
  const path = entry
    ? isAbsolute(entry)
      ? entry
      : resolve(entry)
    : DEFAULT_ENTRY;
  const loaded = path.endsWith(".cjs")
    ? loadCommonJs(path, cacheDir || undefined)
    : {
        exports: (await import(pathToFileURL(path).href)) as Entry,
        keep: undefined,
      };
  const { render, ready } = loaded.exports;
  if (typeof render !== "function") {
    throw new Error(`${path} does not export a render function`);
  }
  await ready;
  return {
    render: render as RenderFn,
    keep: loaded.keep,
  };
}

/**
 * The sidecar's renderer: the entry, its compiled code written down a second after its first
 * render when no cache held it.
 */
export async function loadRenderer(): Promise<RenderFn> {
  const { render, keep } = await loadEntry();
  if (!keep) return render;
  let pending: (() => void) | undefined = keep;
  return (url, data) => {
    const html = render(url, data);
    if (pending) {
      setTimeout(pending, WARM_MS).unref();
      pending = undefined;
    }
    return html;
  };
}
