// Everything a reader needs works from the server's HTML alone.
import { expect, test, type Page } from "@playwright/test";
import {
  DEEPFAKES,
  DEMO_TOTAL,
  FEATURED,
  NAV_LABELS,
  PAGE_SIZE,
  VETO,
  cards,
  screenStylesheets,
} from "./support";

test.use({ javaScriptEnabled: false });

async function goto(page: Page, url: string) {
  const response = await page.goto(url);
  expect(response?.status(), `HTTP status of ${url}`).toBe(200);
}

test.describe("without JavaScript", () => {
  test("the whole stylesheet applies to the screen", async ({ page }) => {
    for (const url of ["/", `/article/${VETO.slug}`, "/magazine"]) {
      await goto(page, url);
      expect(await screenStylesheets(page), url).toBe(1);
    }
  });

  test("home shows the article cards", async ({ page }) => {
    await goto(page, "/");
    const writers = page.getByRole("region", { name: "From Our Writers" });
    await expect(writers.getByRole("article")).toHaveCount(3);
    await expect(
      writers.getByRole("article").first().getByRole("heading"),
    ).toHaveText(FEATURED.title);
    await expect(page.getByText("Loading articles...")).toHaveCount(0);
  });

  test("articles: 6 cards, Load More leads to 12", async ({ page }) => {
    await goto(page, "/articles");
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    await page.getByRole("link", { name: "Load More Articles" }).click();
    await expect(page).toHaveURL(/[?&]limit=12\b/);
    await expect(cards(page)).toHaveCount(DEMO_TOTAL);
    await expect(
      page.getByRole("link", { name: "Load More Articles" }),
    ).toHaveCount(0);
  });

  test("chips are links that filter", async ({ page }) => {
    await goto(page, "/articles");
    const chips = page.getByRole("navigation", { name: "Filter by category" });
    await chips.getByRole("link", { name: "Human Rights" }).click();
    await expect(page).toHaveURL(
      (url) => url.searchParams.getAll("category").join() === "Human Rights",
    );
    await expect(cards(page)).toHaveCount(2);
    await chips.getByRole("link", { name: "Youth Activism" }).click();
    await expect(cards(page)).toHaveCount(4);
    for (const card of await cards(page).all()) {
      await expect(card.locator(".badge").first()).toHaveText(
        /^(Human Rights|Youth Activism)$/,
      );
    }
    await chips.getByRole("link", { name: /^All/ }).click();
    await expect(page).toHaveURL(/\/articles$/);
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
  });

  test("the search form submits to the server", async ({ page }) => {
    await goto(page, "/articles");
    const box = page.getByPlaceholder("Search articles...");
    await box.fill(DEEPFAKES.word);
    await box.press("Enter");
    await expect(page).toHaveURL(
      (url) => url.searchParams.get("q") === DEEPFAKES.word,
    );
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).getByRole("heading")).toHaveText(DEEPFAKES.title);
  });

  test("a category's page lists its pieces from the server", async ({
    page,
  }) => {
    await goto(page, "/");
    await page
      .getByRole("region", { name: "Explore by Category" })
      .getByRole("link", { name: /Human Rights/ })
      .click();
    await expect(page).toHaveURL(/\/category\/human-rights$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Human Rights",
    );
    await expect(cards(page)).toHaveCount(2);
    await expect(page.getByText("Loading articles...")).toHaveCount(0);
  });

  test("an article page shows its body", async ({ page }) => {
    await goto(page, "/articles");
    await cards(page).getByRole("link", { name: VETO.title }).click();
    await expect(page).toHaveURL(new RegExp(`/article/${VETO.slug}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      VETO.title,
    );
    const body = page.locator(".prose");
    await expect(body.getByText(/15 members/)).toBeVisible();
    await expect(body.locator("blockquote")).toBeVisible();
    await expect(body.locator("ol > li")).toHaveCount(4);
  });

  test("header links navigate", async ({ page }) => {
    await goto(page, "/");
    const nav = page.getByRole("navigation", { name: "Main" });
    // The menu button needs JavaScript, so it is hidden and the links are shown.
    await expect(nav.getByRole("button", { name: "Menu" })).toBeHidden();
    await expect(nav.getByRole("link")).toHaveText([...NAV_LABELS]);
    for (const [label, heading] of [
      ["About", "About The Agora"],
      ["Contact", "Get in Touch"],
      ["Magazine", "Magazine"],
      ["Articles", "Articles"],
    ] as const) {
      await nav.getByRole("link", { name: label, exact: true }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    }
  });
});
