// The rendering sidecar can die without the reader noticing. This test kills
// the sidecar of an app of its own (scripts/e2e.sh), which no other spec uses.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import {
  DEEPFAKES,
  SITE_NAME,
  cards,
  rootMarkup,
  waitForHydration,
} from "./support";
import { currentApp } from "./apps";

test.describe.configure({ mode: "serial" });

/** The app's rendering sidecar: its child process running the ssr-renderer. */
function sidecarPids(): number[] {
  const agoraPid = currentApp().pid;
  let out: string;
  try {
    out = execFileSync("pgrep", ["-P", String(agoraPid)], {
      encoding: "utf8",
    });
  } catch {
    return []; // pgrep exits 1 when there is no child
  }
  return out
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(
          "ssr-renderer",
        );
      } catch {
        return false; // already gone
      }
    });
}

function killSidecars(): number[] {
  const pids = sidecarPids();
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // exited in the meantime
    }
  }
  return pids;
}

/**
 * Kills the sidecar now and, until stopped, every replacement the app starts,
 * so that pages rendered meanwhile are certain to miss the renderer.
 */
function keepSidecarDown(): { killed: number[]; stop: () => void } {
  const killed = killSidecars();
  const timer = setInterval(() => killed.push(...killSidecars()), 25);
  return { killed, stop: () => clearInterval(timer) };
}

async function serverMarkup(request: APIRequestContext, url: string) {
  const response = await request.get(url);
  expect(response.status()).toBe(200);
  return rootMarkup(await response.text());
}

/**
 * Waits, without rendering any page, until the app reports its sidecar back.
 * The instance itself stays ready throughout: it serves the shell meanwhile.
 */
async function waitUntilReady(request: APIRequestContext) {
  await expect
    .poll(
      async () => {
        const ready = await request.get("/readyz");
        expect(ready.status()).toBe(200);
        return ((await ready.json()) as { sidecar: string }).sidecar;
      },
      {
        timeout: 10_000,
        intervals: [250],
        message: "the app did not report its sidecar back within 10 s",
      },
    )
    .toBe("ok");
}

// The page cache keys listings by their lower-cased query (and ignores unknown
// parameters on other pages). No other test searches for these, and every run
// of the suite starts a fresh app, so these pages are not cached yet.
const listing = (q: string) => `/articles?q=${encodeURIComponent(q)}`;
const UNCACHED_WHILE_DOWN = listing(DEEPFAKES.uncachedQuery);
const UNCACHED_UNDER_TRAFFIC = listing("guide to deepfakes");

test("the reader gets the page while the sidecar is down", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const before = sidecarPids();
  expect(before, "the app should have one running sidecar").toHaveLength(1);

  const down = keepSidecarDown();
  try {
    expect(down.killed).toEqual(before);

    // The app answers with the client-rendered shell ...
    expect(await serverMarkup(request, UNCACHED_WHILE_DOWN)).toBe("");
    // ... which the browser turns into the same page.
    await page.goto(UNCACHED_WHILE_DOWN);
    await waitForHydration(page);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).getByRole("heading")).toHaveText(DEEPFAKES.title);

    // An article's shell carries its body beside the data, which the browser
    // renders without asking the API for it.
    const href = await cards(page)
      .locator("a[href^='/article/']")
      .first()
      .getAttribute("href");
    expect(href).toMatch(/^\/article\//);
    const shell = await request.get(href ?? "/");
    const shellHtml = await shell.text();
    expect(rootMarkup(shellHtml)).toBe("");
    expect(shellHtml).toContain('<template id="agora-body">');
    const asked: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.startsWith("/api/v1/articles/")) {
        asked.push(r.url());
      }
    });
    await page.goto(href ?? "/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      DEEPFAKES.title,
    );
    await expect(
      page.locator("article.article .prose p").first(),
    ).toBeVisible();
    expect(asked.filter((url) => !url.includes("/responses"))).toEqual([]);
    page.removeAllListeners("request");

    // A static page (perhaps from the page cache, which ignores the unknown
    // query parameter): the About content and title either way.
    const response = await page.goto("/about?x=1");
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    await expect(page).toHaveTitle(`About Us | ${SITE_NAME}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      `About ${SITE_NAME}`,
    );
    await expect(
      page.getByRole("heading", { name: "Meet the Team" }),
    ).toBeVisible();
  } finally {
    down.stop();
  }

  // The app restarts the sidecar and server rendering resumes.
  await waitUntilReady(request);
  expect(await serverMarkup(request, UNCACHED_WHILE_DOWN)).toContain(
    DEEPFAKES.title,
  );
  const after = sidecarPids();
  expect(after).toHaveLength(1);
  expect(before).not.toContain(after[0]);
  expect(await serverMarkup(request, "/about?x=1")).toContain("Meet the Team");
});

test("server rendering comes back while readers keep loading pages", async ({
  request,
}) => {
  test.setTimeout(60_000);
  await waitUntilReady(request);
  const before = sidecarPids();
  expect(before).toHaveLength(1);
  expect(killSidecars()).toEqual(before);

  // Two readers a second ask for a page that has to be rendered.
  await expect
    .poll(async () => serverMarkup(request, UNCACHED_UNDER_TRAFFIC), {
      timeout: 10_000,
      intervals: [500],
      message: "server-rendered HTML did not come back within 10 s",
    })
    .toContain(DEEPFAKES.title);
});
