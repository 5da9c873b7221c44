// Search as a reader types it: words in any order, best match first with the
// matched words marked, a suggestion for a typo, and the order control — on a
// phone, with scripts and without.
import { expect, test, type Page } from "@playwright/test";
import { DEEPFAKES, VETO, cards } from "./support";

const searchBox = (page: Page) => page.getByPlaceholder("Search articles...");
const order = (page: Page) =>
  page.getByRole("navigation", { name: "Order of results" });

async function search(page: Page, words: string) {
  await page.goto("/articles");
  await searchBox(page).fill(words);
  await searchBox(page).press("Enter");
  await expect(page).toHaveURL((url) => url.searchParams.get("q") === words);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(
    javaScriptEnabled ? "search" : "search without JavaScript",
    () => {
      test.use({
        javaScriptEnabled,
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });

      test("words in any order find the piece, its words marked", async ({
        page,
      }) => {
        await search(page, "security veto");
        await expect(cards(page)).toHaveCount(1);
        const card = cards(page).first();
        await expect(card.getByRole("heading")).toHaveText(VETO.title);
        const marked = await card.locator("mark").allTextContents();
        expect(marked.length).toBeGreaterThan(0);
        for (const word of marked)
          expect(word.toLowerCase()).toMatch(/veto|security/);
      });

      test("a typo offers the word the articles use", async ({ page }) => {
        await search(page, "electon");
        await expect(page.getByText("No articles found")).toBeVisible();
        const suggestion = page.getByRole("link", { name: "election" });
        await expect(suggestion).toBeVisible();
        await suggestion.click();
        await expect(page).toHaveURL(
          (url) => url.searchParams.get("q") === "election",
        );
        await expect(
          cards(page).getByRole("heading", { name: DEEPFAKES.title }),
        ).toBeVisible();
        await expect(searchBox(page)).toHaveValue("election");
      });

      test("best match first, or newest first", async ({ page }) => {
        await search(page, "election");
        const best = order(page).getByRole("link", { name: "Best match" });
        await expect(best).toHaveAttribute("aria-current", "true");
        const bestOrder = await cards(page)
          .getByRole("heading")
          .allTextContents();
        await order(page).getByRole("link", { name: "Newest" }).click();
        await expect(page).toHaveURL(
          (url) =>
            url.searchParams.get("sort") === "newest" &&
            url.searchParams.get("q") === "election",
        );
        await expect(
          order(page).getByRole("link", { name: "Newest" }),
        ).toHaveAttribute("aria-current", "true");
        const newestOrder = await cards(page)
          .getByRole("heading")
          .allTextContents();
        // The same pieces, the newest first.
        expect([...newestOrder].sort()).toEqual([...bestOrder].sort());
        const dates = await cards(page)
          .locator("time")
          .evaluateAll((times) =>
            times.map((t) => Date.parse(t.getAttribute("datetime") ?? "")),
          );
        expect(dates).toEqual([...dates].sort((a, b) => b - a));
        // A listing without a search has no order to choose.
        await page.goto("/articles");
        await expect(order(page)).toHaveCount(0);
      });
    },
  );
}
