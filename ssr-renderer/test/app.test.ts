import { once } from "node:events";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";

import { createApp } from "../src/app.js";
import type { RenderFn } from "../src/renderer.js";

let server: Server | undefined;

afterEach(() => {
  server?.close();
  server = undefined;
});

/** Serves `createApp(render)` on a free port; returns its base URL. */
async function serve(render: RenderFn): Promise<string> {
  server = createApp(render).listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

const post = (base: string, body: string, type = "application/json") =>
  fetch(`${base}/render`, {
    method: "POST",
    headers: { "content-type": type },
    body,
  });

describe("the sidecar's HTTP surface", () => {
  it("renders the page asked for with its data", async () => {
    const calls: [string, unknown][] = [];
    const base = await serve((url, data) => {
      calls.push([url, data]);
      return `<main>${url}</main>`;
    });
    const r = await post(
      base,
      JSON.stringify({ url: "/about?x=1", data: { path: "/about" } }),
    );
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ html: "<main>/about?x=1</main>" });
    expect(calls).toEqual([["/about?x=1", { path: "/about" }]]);
  });

  it("answers its health check", async () => {
    const base = await serve(() => "");
    const r = await fetch(`${base}/healthz`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("ok");
  });

  it("refuses bad input with a 4xx, never rendering it", async () => {
    let rendered = 0;
    const base = await serve(() => {
      rendered += 1;
      return "";
    });
    const bad = [
      "{not json",
      JSON.stringify({ data: {} }),
      JSON.stringify({ url: "https://elsewhere.example/", data: {} }),
      JSON.stringify({ url: "/", data: [] }),
      JSON.stringify({ url: "/", data: null }),
      JSON.stringify([]),
    ];
    for (const body of bad) {
      const r = await post(base, body);
      expect(r.status, body).toBe(400);
      expect(typeof ((await r.json()) as { error: unknown }).error).toBe(
        "string",
      );
    }
    const huge = JSON.stringify({ url: "/", data: { x: "a".repeat(3e6) } });
    expect((await post(base, huge)).status).toBe(413);
    expect(rendered).toBe(0);
  });

  it("reports a render that throws as a 500 with its message", async () => {
    const base = await serve(() => {
      throw new Error("boom");
    });
    const r = await post(base, JSON.stringify({ url: "/", data: {} }));
    expect(r.status).toBe(500);
    expect(await r.json()).toEqual({ error: "boom" });
  });

  it("answers unknown routes with a JSON 404", async () => {
    const base = await serve(() => "");
    const r = await fetch(`${base}/nope`);
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: "not found" });
  });
});
