import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import { afterAll, afterEach, describe, expect, it } from "vitest";

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { createSidecar } from "../src/app.js";
import { rendered } from "./rendered.js";
import {
  loadCritical,
  pageGroup,
  selectedAttributes,
  shapeOf,
  shapesOf,
  stylesheetsOf,
} from "../src/critical.js";
import type { CriticalFn, Precomputed } from "../src/critical.js";
import type { RenderFn } from "../src/renderer.js";

let server: Server | undefined;

afterEach(() => {
  server?.close();
  server = undefined;
});

/** Serves `createSidecar(render, critical)` on a free port; returns its base URL. */
async function serve(render: RenderFn, critical?: CriticalFn): Promise<string> {
  server = createServer(createSidecar(render, critical)).listen(0, "127.0.0.1");
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
    expect(await rendered(r)).toEqual({
      html: "<main>/about?x=1</main>",
      css: "",
    });
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
    const page = JSON.stringify({ url: "/", data: {} });
    // Not JSON by its type: refused, not guessed at.
    expect((await post(base, page, "text/plain")).status).toBe(400);
    // Another charset, or a compressed body: refused as unsupported.
    const latin1 = await post(base, page, "application/json; charset=latin1");
    expect(latin1.status).toBe(415);
    const gzipped = await fetch(`${base}/render`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-encoding": "gzip",
      },
      body: page,
    });
    expect(gzipped.status).toBe(415);
    expect(rendered).toBe(0);
    // The refusals leave the sidecar answering.
    expect((await post(base, page)).status).toBe(200);
    // Media type and parameter names in any case, the charset quoted: still UTF-8 JSON.
    const spelled = 'Application/JSON; Charset="UTF-8"';
    expect((await post(base, page, spelled)).status).toBe(200);
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

/** The temporary folders the tests made, removed after them. */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A built web client in a temporary folder: its template and one stylesheet. */
function client(css: string): string {
  const dir = mkdtempSync(join(tmpdir(), "agora-critical-"));
  made.push(dir);
  mkdirSync(join(dir, "assets"));
  writeFileSync(
    join(dir, "index.html"),
    '<html><head><link rel="stylesheet" crossorigin href="/assets/index-x.css"></head><body><div id="root"><!--app-html--></div></body></html>',
  );
  writeFileSync(join(dir, "assets", "index-x.css"), css);
  return dir;
}

describe("critical CSS", () => {
  it("reads the stylesheets the template links", () => {
    expect(
      stylesheetsOf(
        '<link rel="icon" href="/i.svg"><link rel="stylesheet" crossorigin href="/assets/a.css"><link href=/b.css rel=stylesheet>',
      ),
    ).toEqual(["/assets/a.css", "/b.css"]);
  });

  it("keeps the rules the markup uses and leaves out the others", async () => {
    const critical = loadCritical(
      client(
        ".card{color:red}.card:hover{color:blue}.dialog{display:grid}" +
          "@media (min-width:40em){.card{padding:2rem}.dialog{padding:1rem}}" +
          ":root{--ink:#111}body{margin:0}",
      ),
    );
    const css = await critical('<article class="card">Hi</article>');
    expect(css).toContain(".card{color:red}");
    expect(css).toContain(".card:hover{color:blue}");
    expect(css).toContain("@media (min-width:40em){.card{padding:2rem}}");
    expect(css).toContain("--ink:#111");
    expect(css).toContain("body{margin:0}");
    expect(css).not.toContain(".dialog");
  });

  it("answers with the markup's CSS, and with none when it cannot be found", async () => {
    const base = await serve(
      () => '<p class="lead">x</p>',
      async (markup) =>
        markup.includes("lead") ? ".lead{font-size:2rem}" : "",
    );
    const r = await post(base, JSON.stringify({ url: "/", data: {} }));
    expect(await rendered(r)).toEqual({
      html: '<p class="lead">x</p>',
      css: ".lead{font-size:2rem}",
    });
    server?.close();
    const failing = await serve(
      () => "<p>x</p>",
      () => Promise.reject(new Error("no stylesheet")),
    );
    const f = await post(failing, JSON.stringify({ url: "/", data: {} }));
    expect(f.status).toBe(200);
    expect(await rendered(f)).toEqual({ html: "<p>x</p>", css: "" });
  });

  it("tells pages apart by what a stylesheet can select, not by their text", () => {
    const valued = selectedAttributes(
      "input[type=file]{x:1} a[aria-current=page]{y:2}",
    );
    expect([...valued].sort()).toEqual(["aria-current", "type"]);
    const a = shapeOf(
      '<article class="card big"><a href="/a" aria-current="page">One</a><img src="/1.png" alt="x"></article>',
      valued,
    );
    const b = shapeOf(
      '<article class="big card"><a href="/b" aria-current="page">Two, longer</a><img src="/2.png" alt="y"></article><article class="card big"></article>',
      valued,
    );
    expect(a).toBe(b);
    for (const other of [
      '<article class="card"><a href="/a" aria-current="page">One</a><img src="/1.png" alt="x"></article>',
      '<article class="card big"><a href="/a">One</a><img src="/1.png" alt="x"></article>',
      '<article class="card big"><a href="/a" aria-current="step">One</a><img src="/1.png" alt="x"></article>',
      '<article class="card big"><a href="/a" aria-current="page">One</a><img src="/1.png" alt="x"><ul><li>new</li></ul></article>',
    ]) {
      expect(shapeOf(other, valued)).not.toBe(a);
    }
  });

  it("finds the CSS once per page shape", async () => {
    const dir = client(".card{color:red}.lead{color:blue}");
    const critical = loadCritical(dir);
    expect(await critical('<p class="card">one</p>')).toContain(
      ".card{color:red}",
    );
    // The stylesheet changes under it: a page of the same shape still gets what was found…
    writeFileSync(join(dir, "assets", "index-x.css"), ".card{color:green}");
    expect(await critical('<p class="card">two</p>')).toContain(
      ".card{color:red}",
    );
    // …and a page of another shape is worked out afresh.
    expect(await critical('<p class="card" disabled>three</p>')).toContain(
      ".card{color:green}",
    );
  });

  it("sorts pages into the kinds the build finds CSS for", () => {
    expect(pageGroup("/")).toBe("/");
    expect(pageGroup("/articles?q=vote&limit=12")).toBe("/articles");
    expect(pageGroup("/About/")).toBe("/about");
    expect(pageGroup("/article/should-16-year-olds-vote")).toBe("/article/*");
    expect(pageGroup("/category/human-rights?limit=12")).toBe("/category/*");
    expect(pageGroup("/author/maya-o?limit=12")).toBe("/author/*");
    expect(pageGroup("/magazine/november-2026#cover")).toBe("/magazine/*");
    expect(pageGroup("/magazine")).toBe("/magazine");
    expect(pageGroup("/article/gone", 404)).toBe("404");
    expect(pageGroup("/anything", 404)).toBe("404");
  });

  /** Writes what a build would have found for `dir`'s client; returns its path. */
  function precomputed(
    dir: string,
    found: Precomputed["groups"],
    hrefs = ["/assets/index-x.css"],
  ) {
    const path = join(dir, "critical.json");
    writeFileSync(path, JSON.stringify({ stylesheets: hrefs, groups: found }));
    return path;
  }

  it("gives a page the build's CSS for its kind when the build saw all its elements", async () => {
    const dir = client(".card{color:red}.lead{color:blue}.note{color:green}");
    const valued = selectedAttributes(".card{color:red}");
    const seen = '<p class="card">one</p><p class="lead">two</p>';
    const critical = loadCritical(
      dir,
      precomputed(dir, {
        "/article/*": {
          css: "FROM-THE-BUILD",
          shapes: [...shapesOf(seen, valued)],
        },
      }),
    );
    // Fewer elements than the build saw, other text: the build's CSS, as it is.
    expect(
      await critical('<p class="lead">other words</p>', "/article/a"),
    ).toBe("FROM-THE-BUILD");
    // Another kind of page, or an element the build never saw: found from the stylesheet.
    const about = await critical('<p class="lead">x</p>', "/about");
    expect(about).toContain(".lead{color:blue}");
    expect(about).not.toContain("FROM-THE-BUILD");
    const unseen = await critical(
      '<p class="lead">x</p><p class="note">y</p>',
      "/article/a",
    );
    expect(unseen).toContain(".note{color:green}");
    expect(unseen).not.toContain(".card");
    // The same page missing: a 404 is a kind of its own.
    expect(
      await critical('<p class="lead">x</p>', "/article/gone", 404),
    ).not.toBe("FROM-THE-BUILD");
  });

  it("does not trust findings made for other stylesheets", async () => {
    const dir = client(".lead{color:blue}");
    const critical = loadCritical(
      dir,
      precomputed(dir, { "/about": { css: "STALE", shapes: ["p.lead"] } }, [
        "/assets/index-old.css",
      ]),
    );
    const css = await critical('<p class="lead">x</p>', "/about");
    expect(css).toContain(".lead{color:blue}");
  });
});
