import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Starts the built sidecar on a free port; resolves with the process and its base URL. */
async function start() {
  const child = spawn(process.execPath, ["dist/server.js"], {
    cwd: root,
    env: { ...process.env, SSR_PORT: "0", SSR_HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error("no listening line")),
      10_000,
    );
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = out.match(/listening on (http:\/\/[^\s]+)/);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`exited early (${code})`)));
  });
  return { child, base };
}

describe("the sidecar process", () => {
  it("renders the built web client's pages, then stops cleanly on SIGTERM", async () => {
    const { child, base } = await start();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const r = await fetch(`${base}/render`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        url: "/about",
        data: {
          site: { name: "The Agora", url: "https://agora.test" },
          path: "/about",
          status: 200,
        },
      }),
    });
    expect(r.status).toBe(200);
    const { html, css } = (await r.json()) as { html: string; css: string };
    expect(html).toContain("About");
    expect(html.length).toBeGreaterThan(200);
    // The built stylesheet's rules for this page (the site header is on it), not all of it.
    expect(css).toContain(".site-header");
    const assets = join(root, "../web-client/dist/client/assets");
    const sheet = readdirSync(assets).find((f) => /^index-.*\.css$/.test(f));
    expect(sheet).toBeDefined();
    const whole = statSync(join(assets, sheet ?? "")).size;
    expect(css.length).toBeLessThan(whole / 2);

    const started = Date.now();
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
