// Hydration is clean: no mismatch warnings, no console errors.
import { expect, test } from "@playwright/test";
import {
  FEATURED,
  VETO,
  cards,
  open,
  recordConsole,
  type ConsoleEntry,
} from "./support";

const HYDRATION = /hydrat|did not match/i;

function describe(entries: ConsoleEntry[]): string {
  return entries.map((e) => `[${e.type}] ${e.text}`).join("\n");
}

async function settle(page: import("@playwright/test").Page) {
  await page.waitForLoadState("networkidle");
}

for (const url of [
  "/",
  "/articles",
  "/articles?category=Human%20Rights&q=the",
  "/category/human-rights",
  `/article/${VETO.slug}`,
  "/about",
]) {
  test(`no hydration warnings or console errors on ${url}`, async ({
    page,
  }) => {
    const entries = recordConsole(page);
    await open(page, url);
    await settle(page);
    expect(
      entries.filter((e) => HYDRATION.test(e.text)),
      describe(entries),
    ).toEqual([]);
    expect(entries, describe(entries)).toEqual([]);
  });
}

test("no console errors while browsing in the app", async ({ page }) => {
  const entries = recordConsole(page);
  await open(page, "/");
  await cards(page).getByRole("link", { name: FEATURED.title }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    FEATURED.title,
  );
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Articles" }).click();
  await expect(cards(page)).toHaveCount(6);
  await page.getByRole("link", { name: "Load More Articles" }).click();
  await expect(cards(page)).toHaveCount(12);
  await nav.getByRole("link", { name: "About" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "About The Agora",
  );
  await settle(page);
  expect(entries, describe(entries)).toEqual([]);
});

test("the 404 page logs nothing but the browser's own report", async ({
  page,
  baseURL,
}) => {
  const entries = recordConsole(page);
  await open(page, "/no-such-page", 404);
  await settle(page);
  // Chromium itself reports the document's 404 status; the app adds nothing.
  const browserReport = {
    type: "error",
    text: "Failed to load resource: the server responded with a status of 404 (Not Found)",
    url: new URL("/no-such-page", baseURL).href,
  };
  expect(entries, describe(entries)).toEqual([browserReport]);
});
