// Shared helpers and the demo content the suite runs against
// (app/demo/articles.json, loaded by `agora seed --demo`).
import { expect, type Locator, type Page } from "@playwright/test";

export const SITE_NAME = "The Agora";

/** Category names in the order of the filter chips and the Home tiles. */
export const CHIP_ORDER = [
  "International Affairs",
  "Climate Justice",
  "Culture & Politics",
  "Human Rights",
  "Youth Activism",
  "Digital Democracy",
] as const;

export const TILE_ORDER = [
  "International Affairs",
  "Youth Activism",
  "Human Rights",
  "Climate Justice",
  "Culture & Politics",
  "Digital Democracy",
] as const;

/** The address of a category's page: "/category/culture-politics". */
export function categoryPath(name: string): string {
  const slug = name.toLowerCase().replace(/&/g, "").trim().replace(/\s+/g, "-");
  return `/category/${slug}`;
}

/** Header links, in order, on every public page. */
export const NAV_LABELS = [
  "Home",
  "Articles",
  "Magazine",
  "Educational Packs",
  "About",
  "Contributors",
  "Contact",
] as const;

/** The only featured demo article (also the newest). */
export const FEATURED = {
  title: "Should 16-Year-Olds Vote? We Asked Both Sides",
  slug: "should-16-year-olds-vote-we-asked-both-sides",
  category: "Youth Activism",
};

/** A demo article whose body has h2, h3, lists, a quote, a rule and external links. */
export const VETO = {
  title: "The Veto, Explained: Who Really Decides at the UN Security Council?",
  slug: "the-veto-explained-who-really-decides-at-the-un-security-council",
  subtitle:
    "Five countries, one word, and a lot of frustration. Here's how the most powerful room in global diplomacy actually works.",
  category: "International Affairs",
  author: "Maya O.",
};

/** The only demo article whose title, subtitle or body mentions deepfakes. */
export const DEEPFAKES = {
  title: "A Field Guide to Deepfakes Before Election Season",
  word: "deepfakes",
  /** Another query finding only it, used by the sidecar test alone. */
  uncachedQuery: "field guide to deepfakes",
};

export const DEMO_TOTAL = 12;
export const PAGE_SIZE = 6;

/** The fingerprinted local fallback cover served by the app. */
export const FALLBACK_COVER = /\/assets\/cover-fallback-[\w-]+\.svg$/;

/** The article cards in the page's main content. */
export function cards(page: Page): Locator {
  return page.getByRole("main").getByRole("article");
}

/**
 * Resolves once React has hydrated (or rendered) the page and committed it.
 * Hydration runs in a transition, so React may own some nodes (its fiber is on
 * them) before the page is live: the root's committed tree is what counts.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.getElementById("root");
    const key =
      root && Object.keys(root).find((k) => k.startsWith("__reactContainer$"));
    if (!root || !key) return false;
    const host = (root as unknown as Record<string, unknown>)[key] as {
      stateNode?: {
        current?: {
          child: unknown;
          memoizedState?: { isDehydrated?: boolean };
        };
      };
    };
    const current = host.stateNode?.current;
    return (
      current !== undefined &&
      current.child !== null &&
      current.memoizedState?.isDehydrated !== true &&
      document.getElementById("main") !== null
    );
  });
}

/** Loads a page, checks the status and waits until React owns it. */
export async function open(page: Page, url: string, status = 200) {
  const response = await page.goto(url);
  expect(response, `no response for ${url}`).not.toBeNull();
  expect(response?.status(), `HTTP status of ${url}`).toBe(status);
  await waitForHydration(page);
  return response;
}

export interface ConsoleEntry {
  type: string;
  text: string;
  /** The URL of the script or resource that logged it, when known. */
  url?: string;
}

/** Records console errors and warnings and uncaught exceptions from now on. */
export function recordConsole(page: Page): ConsoleEntry[] {
  const entries: ConsoleEntry[] = [];
  page.on("console", (message) => {
    const type = message.type();
    if (type === "error" || type === "warning") {
      entries.push({ type, text: message.text(), url: message.location().url });
    }
  });
  page.on("pageerror", (error) => {
    entries.push({ type: "pageerror", text: String(error) });
  });
  return entries;
}

/** Fails the test if the page opens an alert, confirm or prompt. */
export function failOnDialog(page: Page): string[] {
  const opened: string[] = [];
  page.on("dialog", (dialog) => {
    opened.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return opened;
}

/** The server markup inside `<div id="root">` of a page's HTML. */
export function rootMarkup(html: string): string {
  const start = html.indexOf('<div id="root">');
  if (start < 0) throw new Error('the page has no <div id="root">');
  const end = html.lastIndexOf("</body>");
  return (
    html
      .slice(start + '<div id="root">'.length, end < 0 ? undefined : end)
      // What the template puts after the root: deferred stylesheets and the
      // page-view image for browsers without scripts.
      .replace(
        /(\s*(<link\b[^>]*>|<noscript>((?!<\/?noscript>)[\s\S])*<\/noscript>))+\s*$/,
        "",
      )
      .replace(/<\/div>\s*$/, "")
      .trim()
  );
}

/** Scrolls to the bottom and back so that lazy images load before a screenshot. */
export async function loadLazyImages(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForFunction(() =>
    Array.from(document.images).every((img) => img.complete),
  );
}

/**
 * The site's own stylesheets (not the CSS inlined in the page) that apply to the screen:
 * the server loads them for print, and the page's script (or, without scripts, a
 * `<noscript>` copy) applies them.
 */
export async function screenStylesheets(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      [...document.styleSheets].filter(
        (sheet) =>
          sheet.href?.includes("/assets/") &&
          !sheet.disabled &&
          (sheet.media.mediaText === "" ||
            window.matchMedia(sheet.media.mediaText).matches),
      ).length,
  );
}

/**
 * Holds back the page's requests matching `url` until the returned function is called: a
 * test can look at the page while they are on their way (a fixed delay would race a busy
 * machine).
 */
export async function holdRequests(
  page: Page,
  url: string | RegExp,
): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
