// The header's menu on a phone (runs in the "mobile" project only).
import path from "node:path";
import { expect, test } from "@playwright/test";
import { NAV_LABELS, open } from "./support";

test.describe("mobile menu", () => {
  test("toggles the header links and navigates", async ({ page }) => {
    await open(page, "/");
    const nav = page.getByRole("navigation", { name: "Main" });
    const toggle = nav.getByRole("button", { name: "Menu" });
    // Hidden links are not in the accessibility tree: include them to count them.
    const links = nav.getByRole("link", { includeHidden: true });

    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(links).toHaveCount(NAV_LABELS.length);
    for (const link of await links.all()) await expect(link).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(links).toHaveText([...NAV_LABELS]);
    for (const link of await links.all()) await expect(link).toBeVisible();
    await page.screenshot({
      path: path.join(
        test.info().project.testDir,
        "screenshots",
        "mobile-menu.png",
      ),
    });

    // Closing again hides the links.
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(links.first()).toBeHidden();

    // Escape closes it as well.
    await toggle.click();
    await expect(links.first()).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    // Focus returns to the button that opened it, not to the page.
    await expect(toggle).toBeFocused();

    // A link in the open menu navigates and closes the menu.
    await toggle.click();
    await nav.getByRole("link", { name: "About" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "About The Agora",
    );
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "About" })).toBeHidden();
  });
});
