import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Precomputed } from "../src/critical.js";
import { rendered, splitRendered } from "./rendered.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Starts the built sidecar on a free port; resolves with the process and its base URL. */
async function start(env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, ["dist/server.js"], {
    cwd: root,
    env: { ...process.env, ...env, SSR_PORT: "0", SSR_HOST: "127.0.0.1" },
    stdio: ["pipe", "pipe", "inherit"],
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

const about = {
  url: "/about",
  data: {
    site: { name: "The Agora", url: "https://agora.test" },
    path: "/about",
    status: 200,
  },
};

describe("the sidecar process", () => {
  it("renders the built web client's pages, then stops cleanly on SIGTERM", async () => {
    const { child, base } = await start();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const r = await fetch(`${base}/render`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(about),
    });
    expect(r.status).toBe(200);
    const { html, css } = await rendered(r);
    expect(html).toContain("About");
    expect(html.length).toBeGreaterThan(200);
    // The built stylesheet's rules for this page (the site header is on it), not all of it.
    expect(css).toContain(".site-header");
    const assets = join(root, "../web-client/dist/client/assets");
    const sheet = readdirSync(assets).find((f) => /^index-.*\.css$/.test(f));
    expect(sheet).toBeDefined();
    const whole = statSync(join(assets, sheet ?? "")).size;
    expect(css.length).toBeLessThan(whole / 2);
    // Found by the build for this kind of page (dist/critical.json), not at this render.
    const found = JSON.parse(
      readFileSync(join(root, "dist/critical.json"), "utf8"),
    ) as Precomputed;
    expect(css).toBe(found.groups["/about"]?.css);
    // Any other route is Express's, loaded from its own chunk of the build when first asked.
    const missing = await fetch(`${base}/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "not found" });
    expect((await fetch(`${base}/healthz?probe=1`)).status).toBe(200);

    const started = Date.now();
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("listens on a Unix socket when given one, leaving no stale file behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ssr-socket-"));
    const socket = join(dir, "sidecar.sock");
    // A socket left by a sidecar that was killed does not stop the next one.
    writeFileSync(socket, "stale");
    const child = spawn(process.execPath, ["dist/server.js"], {
      cwd: root,
      env: { ...process.env, SSR_SOCKET: socket },
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("no listening line")),
        10_000,
      );
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes(`listening on ${socket}`)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const answer = await new Promise<{
      status: number;
      css: string | undefined;
      body: Buffer;
    }>((resolve, reject) => {
      const req = request(
        {
          socketPath: socket,
          path: "/render",
          method: "POST",
          headers: { "content-type": "application/json" },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              css: res.headers["x-critical-css-bytes"] as string | undefined,
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(about));
    });
    expect(answer.status).toBe(200);
    const { html, css } = splitRendered(answer.body, answer.css ?? null);
    expect(html).toContain("About");
    expect(css.length).toBeGreaterThan(0);
    child.kill("SIGTERM");
    await once(child, "exit");
    expect(existsSync(socket)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it("ends when the app that started it is gone (its pipe closes)", async () => {
    const { child, base } = await start({ SSR_PARENT_PIPE: "1" });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const started = Date.now();
    // What the OS does when the app dies, even by SIGKILL: its end of the pipe closes.
    child.stdin.end();
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("without SSR_PARENT_PIPE (run on its own), a closed stdin does not stop it", async () => {
    const { child, base } = await start();
    child.stdin.end();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    child.kill("SIGTERM");
    await once(child, "exit");
  });

  it("exports its spans, in the caller's trace, to OTLP/HTTP when it stops", async () => {
    const exports: { path: string; type: string; body: Buffer }[] = [];
    const collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        exports.push({
          path: req.url ?? "",
          type: req.headers["content-type"] ?? "",
          body: Buffer.concat(chunks),
        });
        res.writeHead(200, { "content-type": "application/x-protobuf" });
        res.end();
      });
    }).listen(0, "127.0.0.1");
    await once(collector, "listening");
    const { port } = collector.address() as AddressInfo;
    try {
      const { child, base } = await start({
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        // Nothing is sent on a schedule during the test: only the flush on SIGTERM.
        OTEL_BSP_SCHEDULE_DELAY: "60000",
        OTEL_SERVICE_NAME: "",
      });
      const traceId = "0af7651916cd43dd8448eb211c80319c";
      const r = await fetch(`${base}/render`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          traceparent: `00-${traceId}-b7ad6b7169203331-01`,
        },
        body: JSON.stringify(about),
      });
      expect(r.status).toBe(200);
      expect(exports).toEqual([]);
      child.kill("SIGTERM");
      const [code] = (await once(child, "exit")) as [number | null];
      expect(code).toBe(0);
      expect(exports.map((e) => [e.path, e.type])).toEqual([
        ["/v1/traces", "application/x-protobuf"],
      ]);
      const body = exports[0]?.body ?? Buffer.alloc(0);
      // Protobuf: the ids are raw bytes, the names plain text.
      expect(body.includes(Buffer.from(traceId, "hex"))).toBe(true);
      expect(body.includes(Buffer.from("b7ad6b7169203331", "hex"))).toBe(true);
      for (const text of ["agora-ssr", "ssr render", "react render"]) {
        expect(body.includes(Buffer.from(text)), text).toBe(true);
      }
    } finally {
      collector.close();
    }
  });
});
