// Writes precompressed .gz and .br siblings for every fingerprinted asset so the
// Rust app can serve them without compressing on each request.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const assetsDir = fileURLToPath(
  new URL("../dist/client/assets/", import.meta.url),
);

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (!/\.(gz|br)$/.test(entry.name)) yield path;
  }
}

let count = 0;
for await (const file of walk(assetsDir)) {
  const body = await readFile(file);
  await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
  await writeFile(
    `${file}.br`,
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  );
  count += 1;
}
console.log(`compressed ${count} asset(s) to .gz and .br`);
