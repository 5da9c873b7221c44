// Full-page screenshots for a human to look at (e2e/screenshots/, not committed).
import path from "node:path";
import { expect, test } from "@playwright/test";
import { VETO, loadLazyImages, open } from "./support";

const SHOTS: readonly [name: string, url: string, heading: string][] = [
  ["home", "/", "Empowering Young Voices in Global Politics"],
  ["articles", "/articles", "Articles"],
  ["article", `/article/${VETO.slug}`, VETO.title],
  ["about", "/about", "About The Agora"],
];

for (const [name, url, heading] of SHOTS) {
  test(`screenshot: ${name}`, async ({ page }) => {
    await open(page, url);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await loadLazyImages(page);
    await page.screenshot({
      path: path.join(
        test.info().project.testDir,
        "screenshots",
        `${name}.png`,
      ),
      fullPage: true,
    });
  });
}
