// Section pages open on a short hero: the first content shows above the fold on the
// commonest phone and a laptop. (Runs before any magazine issue is published: with
// one, the magazine's hero is the latest issue itself.)
import { expect, test } from "@playwright/test";
import { open } from "./support";

test.describe("heroes", () => {
  test("section heroes leave the first content above the fold", async ({
    page,
  }) => {
    for (const [width, height] of [
      [390, 844],
      [1366, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const path of [
        "/articles",
        "/about",
        "/contributors",
        "/magazine",
        "/educational-packs",
        "/contact-us",
        "/application",
      ]) {
        await open(page, path);
        // The first thing after the hero shows, with room for more than its first line.
        const top = await page.evaluate(() => {
          const next = document.querySelector("main .hero")?.nextElementSibling;
          const first = [
            ...(next?.querySelectorAll("h2, h3, p, input, article, li, a") ??
              []),
          ].find((e) => e.getBoundingClientRect().height > 0);
          return first ? first.getBoundingClientRect().top : Infinity;
        });
        expect(top, `${path} at ${width}x${height}`).toBeLessThan(height - 120);
      }
    }
  });
});
