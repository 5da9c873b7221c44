// The articles listing: paging, search, category chips, empty state (§2).
import { expect, test, type Page } from "@playwright/test";
import {
  CHIP_ORDER,
  DEEPFAKES,
  DEMO_TOTAL,
  PAGE_SIZE,
  VETO,
  cards,
  open,
} from "./support";

const chips = (page: Page) =>
  page.getByRole("navigation", { name: "Filter by category" });
/** A chip by category; a selected chip's name ends with " (selected)". */
const chip = (page: Page, name: string) =>
  chips(page).getByRole("link", {
    name: new RegExp(
      `^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\(selected\\))?$`,
    ),
  });
const searchBox = (page: Page) => page.getByPlaceholder("Search articles...");
const loadMore = (page: Page) =>
  page.getByRole("link", { name: "Load More Articles" });

/** Marks the document so a later check can tell an in-place update from a reload. */
async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
  });
}
async function expectSameDocument(page: Page) {
  expect(
    await page.evaluate(
      () =>
        (window as unknown as { __sameDocument?: boolean }).__sameDocument ===
        true,
    ),
    "the page was reloaded instead of updated in place",
  ).toBe(true);
}

test.describe("articles listing", () => {
  test("shows 6, Load More adds 6 and then disappears", async ({ page }) => {
    await open(page, "/articles");
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    await expect(
      page.getByText(`Showing 6 of ${DEMO_TOTAL} articles`),
    ).toBeVisible();
    const firstSix = await cards(page).getByRole("heading").allTextContents();

    await markDocument(page);
    await loadMore(page).click();
    await expect(cards(page)).toHaveCount(DEMO_TOTAL);
    await expect(loadMore(page)).toHaveCount(0);
    await expect(page).toHaveURL(/[?&]limit=12\b/);
    await expectSameDocument(page);
    // The first page stays in place and the new cards follow it, without repeats.
    const all = await cards(page).getByRole("heading").allTextContents();
    expect(all.slice(0, PAGE_SIZE)).toEqual(firstSix);
    expect(new Set(all).size).toBe(DEMO_TOTAL);
  });

  test("search filters the results and puts q in the URL", async ({ page }) => {
    await open(page, "/articles");
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    await markDocument(page);
    await searchBox(page).fill(DEEPFAKES.word);
    await searchBox(page).press("Enter");
    await expect(cards(page)).toHaveCount(1);
    await expect(
      cards(page).getByRole("heading", { name: DEEPFAKES.title }),
    ).toBeVisible();
    await expect(page).toHaveURL(
      (url) => url.searchParams.get("q") === DEEPFAKES.word,
    );
    await expect(loadMore(page)).toHaveCount(0);
    await expectSameDocument(page);
    await expect(searchBox(page)).toHaveValue(DEEPFAKES.word);
  });

  test("chips are multi-select and All clears them", async ({ page }) => {
    await open(page, "/articles");
    await expect(chip(page, "All")).toHaveClass(/is-selected/);

    await chip(page, "Human Rights").click();
    await expect(cards(page)).toHaveCount(2);
    await chip(page, "Climate Justice").click();
    await expect(cards(page)).toHaveCount(4);
    await expect(page).toHaveURL((url) => {
      const chosen = url.searchParams.getAll("category").sort();
      return chosen.join("|") === "Climate Justice|Human Rights";
    });
    await expect(chip(page, "Human Rights")).toHaveClass(/is-selected/);
    await expect(chip(page, "Climate Justice")).toHaveClass(/is-selected/);
    await expect(chip(page, "All")).not.toHaveClass(/is-selected/);
    for (const card of await cards(page).all()) {
      const badge = card.locator(".badge").first();
      await expect(badge).toHaveText(/^(Human Rights|Climate Justice)$/);
    }

    // Clicking a selected chip again removes it.
    await chip(page, "Human Rights").click();
    await expect(cards(page)).toHaveCount(2);
    await expect(chip(page, "Human Rights")).not.toHaveClass(/is-selected/);

    await chip(page, "All").click();
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    await expect(page).toHaveURL((url) => !url.searchParams.has("category"));
    await expect(chip(page, "All")).toHaveClass(/is-selected/);
    await expect(chips(page).getByRole("link")).toHaveText([
      "All (selected)",
      ...CHIP_ORDER,
    ]);
  });

  test("a category tile on Home opens the category's page", async ({
    page,
  }) => {
    await open(page, "/");
    await page
      .getByRole("region", { name: "Explore by Category" })
      .getByRole("link", { name: /Culture & Politics/ })
      .click();
    await expect(page).toHaveURL(/\/category\/culture-politics$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Culture & Politics",
    );
    await expect(page).toHaveTitle("Culture & Politics | The Agora");
    await expect(
      page.getByText("Music, film, sport and media where they meet power."),
    ).toBeVisible();
    await expect(cards(page)).toHaveCount(2);
    for (const card of await cards(page).all()) {
      await expect(card.locator(".badge").first()).toHaveText(
        "Culture & Politics",
      );
    }
    await expect(
      page.getByRole("link", {
        name: "Follow Culture & Politics in a feed reader",
      }),
    ).toHaveAttribute("href", "/feed/culture-politics.xml");
    // The filter on /articles still works, and the page leads there.
    await page.getByRole("link", { name: "Search these articles" }).click();
    await expect(page).toHaveURL(
      (url) =>
        url.pathname === "/articles" &&
        url.searchParams.get("category") === "Culture & Politics",
    );
    await expect(chip(page, "Culture & Politics")).toHaveClass(/is-selected/);
    await expect(chip(page, "All")).not.toHaveClass(/is-selected/);
    await expect(cards(page)).toHaveCount(2);
  });

  test("an article's category leads to the category's page", async ({
    page,
  }) => {
    await open(page, `/article/${VETO.slug}`);
    await page
      .locator(".article-badges")
      .getByRole("link", { name: VETO.category, exact: true })
      .click();
    await expect(page).toHaveURL(/\/category\/international-affairs$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      VETO.category,
    );
    await expect(
      cards(page).getByRole("link", { name: VETO.title }),
    ).toBeVisible();
  });

  test("a category that does not exist is a page not found", async ({
    page,
  }) => {
    await open(page, "/category/sports", 404);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(
      /not found/i,
    );
  });

  test("no match: empty state, Clear Filters restores the list", async ({
    page,
  }) => {
    await open(page, "/articles");
    await chip(page, "Digital Democracy").click();
    await expect(cards(page)).toHaveCount(2);
    await searchBox(page).fill("zebra crossing quantum");
    await searchBox(page).press("Enter");
    await expect(
      page.getByRole("heading", { name: "No articles found" }),
    ).toBeVisible();
    await expect(
      page.getByText("Try adjusting your search terms or selected categories"),
    ).toBeVisible();
    await expect(cards(page)).toHaveCount(0);

    await page.getByRole("link", { name: "Clear Filters" }).click();
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    await expect(page).toHaveURL(/\/articles$/);
    await expect(searchBox(page)).toHaveValue("");
    await expect(chip(page, "All")).toHaveClass(/is-selected/);
  });
});
