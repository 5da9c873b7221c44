// A page paints before its stylesheet arrives: the CSS it needs is inlined in
// its head, found at build time for each kind of page (ssr-renderer's
// precompute). What a reader on a phone sees first, with only that CSS, is what
// they see once the whole stylesheet has loaded.
import { expect, test, type Browser } from "@playwright/test";
import { VETO } from "./support";

const PAGES = [
  "/",
  "/articles",
  "/articles?q=vote",
  "/articles?q=electon",
  "/category/human-rights",
  `/article/${VETO.slug}`,
  "/magazine",
  "/about",
  "/no-such-page",
];

/** The first screen of `path` at 390 px, scripts off (no hydration, no swap). */
async function firstScreen(
  browser: Browser,
  path: string,
  stylesheet: boolean,
) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    javaScriptEnabled: false,
  });
  const page = await context.newPage();
  const blocked: string[] = [];
  if (!stylesheet) {
    await page.route(/\.css(\?|$)/, (route) => {
      blocked.push(route.request().url());
      return route.abort();
    });
  }
  await page.goto(path, { waitUntil: "load" });
  // Still frames: a transition started by a rule that changed would show as a difference anyway.
  const shot = await page.screenshot({ animations: "disabled" });
  await context.close();
  return { shot, blocked };
}

for (const path of PAGES) {
  test(`${path} paints with its inlined CSS as it does with the whole stylesheet`, async ({
    browser,
  }) => {
    const inlined = await firstScreen(browser, path, false);
    // The page did ask for the stylesheet: without it, only the inlined CSS applied.
    expect(inlined.blocked.length).toBeGreaterThan(0);
    const whole = await firstScreen(browser, path, true);
    if (!inlined.shot.equals(whole.shot)) {
      await test.info().attach("inlined CSS only", {
        body: inlined.shot,
        contentType: "image/png",
      });
      await test.info().attach("whole stylesheet", {
        body: whole.shot,
        contentType: "image/png",
      });
    }
    expect(inlined.shot.equals(whole.shot)).toBe(true);
  });
}
