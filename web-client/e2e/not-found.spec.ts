// A page that is not there (issue 30) offers a search of the articles and the
// newest ones, with and without JavaScript, for an unknown address and for an
// article that is gone.
import { expect, test, type Page } from "@playwright/test";
import { VETO, cards, open } from "./support";

/** The titles of the 3 newest articles, as the API lists them. */
async function newestTitles(page: Page): Promise<string[]> {
  const r = await page.request.get("/api/v1/articles?sort=newest&limit=3");
  const body = (await r.json()) as { items: { title: string }[] };
  return body.items.map((a) => a.title);
}

async function offersHelp(page: Page) {
  await expect(
    page
      .getByRole("search")
      .getByRole("searchbox", { name: "Search articles" }),
  ).toBeVisible();
  await expect(
    page.getByRole("heading", { name: "Newest articles" }),
  ).toBeVisible();
  const titles = await cards(page).getByRole("heading").allTextContents();
  expect(titles).toEqual(await newestTitles(page));
}

/** The page's search box finds `title` for `words`, on the listing. */
async function searchesFor(page: Page, words: string, title: string) {
  await page.getByRole("searchbox", { name: "Search articles" }).fill(words);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`/articles\\?q=${words}$`));
  await expect(cards(page).getByRole("heading", { name: title })).toBeVisible();
}

for (const path of ["/no-such-page", "/article/no-such-article"]) {
  test(`${path} offers a search and the newest articles`, async ({ page }) => {
    await open(page, path, 404);
    await offersHelp(page);
    await searchesFor(page, "veto", VETO.title);
  });
}

test("without JavaScript the 404 page has the same help", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await offersHelp(page);
  await searchesFor(page, "veto", VETO.title);
  await context.close();
});
