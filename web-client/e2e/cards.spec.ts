// Cards read well on a phone (issue 30): the whole headline (never cut to two
// lines with "…"), an excerpt from the opening prose (not a heading run into
// list items), and a meta line no line of which starts with a separator.
import { expect, test } from "@playwright/test";
import { addStaff, signIn, tag, toast } from "./staff-support";
import { open } from "./support";

test.use({ viewport: { width: 390, height: 844 } });

test("a card at 390 px: full headline, opening prose, tidy meta line", async ({
  page,
}) => {
  const t = tag();
  const writer = `Wren Longname-Hyphenated ${t}`;
  addStaff(writer, "writer");
  const key = addStaff(`Dana ${t}`, "content-director");
  const title = `Who Really Decides at the United Nations Security Council When Five Members Can Veto Everything ${t}`;
  await signIn(page, key, "/dashboard/content-director");
  await page.getByRole("button", { name: "New Article" }).click();
  const editor = page.getByRole("region", { name: "New Article" });
  await editor.getByLabel("Writer").selectOption({ label: writer });
  await editor.getByLabel("Title", { exact: true }).fill(title);
  await editor
    .getByLabel("Content", { exact: true })
    .fill(
      "## Why it matters\n\nMost of us first vote at eighteen.\n\n## Campaigns\n\n- Debates\n- Turnout",
    );
  await editor.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(toast(page, "Article published successfully!")).toBeVisible();

  await open(page, `/articles?q=${t}`);
  const card = page.locator("article.card").filter({ hasText: t });
  await expect(card).toHaveCount(1);
  const heading = card.getByRole("heading", { name: title });
  await expect(heading).toBeVisible();
  // Not clipped: all of it is laid out and shown.
  const clipped = await heading.evaluate(
    (el) =>
      el.scrollHeight > el.clientHeight + 1 ||
      getComputedStyle(el).webkitLineClamp !== "none",
  );
  expect(clipped).toBe(false);
  await expect(card.locator(".card-excerpt")).toHaveText(
    "Most of us first vote at eighteen.",
  );
  // Wrapped or not, no item of the meta line starts with a separator.
  const starts = await card
    .locator(".card-meta > *")
    .evaluateAll((items) =>
      items.map((item) => (item.textContent ?? "").trimStart().charAt(0)),
    );
  expect(starts.length).toBe(3);
  expect(starts).not.toContain("·");
});
