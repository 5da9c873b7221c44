// When the API cannot be reached after the first page, readers still get
// something sensible (spec §8): the built-in sample article instead of an
// error, and "Error" / "Failed to load articles" with an empty list.
import { expect, test } from "@playwright/test";
import { cards, open, VETO } from "./support";

test("an article that cannot be fetched shows the sample article", async ({
  page,
}) => {
  await open(page, "/articles");
  // Only the single-article call fails; the listing stays reachable.
  await page.route("**/api/v1/articles/*", (route) => route.abort("failed"));
  await cards(page)
    .filter({ hasText: VETO.title })
    .getByRole("link", { name: VETO.title })
    .click();
  await expect(page).toHaveURL(new RegExp(`/article/${VETO.slug}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    /Rising Tides, Rising Voices/,
  );
  await expect(page.getByText("Article not found")).toHaveCount(0);
  await expect(
    page.getByText(/Youth climate activism has grown/),
  ).toBeVisible();
});

test("a listing that cannot be fetched says so, with a Retry that works", async ({
  page,
}) => {
  await open(page, "/articles");
  await expect(cards(page).first()).toBeVisible();
  await page.route(/\/api\/v1\/articles\?/, (route) => route.abort("failed"));
  await page.getByPlaceholder("Search articles...").fill("climate");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const toasts = page.locator(".toasts");
  await expect(toasts.getByText("Error", { exact: true })).toBeVisible();
  await expect(
    toasts.getByText("Failed to load articles", { exact: true }),
  ).toBeVisible();
  await expect(cards(page)).toHaveCount(0);
  // The page says the loading failed, never that nothing was published.
  const main = page.getByRole("main");
  await expect(main.getByRole("alert")).toContainText(
    "Failed to load articles",
  );
  await expect(main.getByText("No articles found")).toHaveCount(0);
  await expect(
    main.getByText("No published articles available yet"),
  ).toHaveCount(0);
  // Once the server answers again, Retry shows the results.
  await page.unroute(/\/api\/v1\/articles\?/);
  await main.getByRole("button", { name: "Retry" }).click();
  await expect(cards(page).first()).toBeVisible();
  await expect(main.getByText("Failed to load articles")).toHaveCount(0);
});
