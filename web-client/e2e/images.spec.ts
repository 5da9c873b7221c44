// Covers sized for phones (issue 30): an uploaded cover is offered as WebP at
// 400, 800 and 1200 pixels, and each screen loads the one it can show — not
// the full-size original — with its size set so nothing shifts as it loads.
import { expect, test, type Page } from "@playwright/test";
import { addStaff, signIn, tag, toast } from "./staff-support";
import { open, waitForHydration } from "./support";

/** A photo-like 1600×900 JPEG, drawn by the browser. */
async function photo(page: Page): Promise<Buffer> {
  const data = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 1600;
    canvas.height = 900;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2d context");
    const sky = ctx.createLinearGradient(0, 0, 1600, 900);
    sky.addColorStop(0, "#1d3557");
    sky.addColorStop(1, "#e76f51");
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, 1600, 900);
    // Fine detail, as a photo has: small dots of many colours.
    for (let i = 0; i < 40_000; i++) {
      ctx.fillStyle = `hsl(${(i * 37) % 360} 60% ${30 + (i % 50)}%)`;
      ctx.fillRect((i * 7919) % 1600, (i * 104729) % 900, 3, 3);
    }
    return canvas.toDataURL("image/jpeg", 0.9).split(",")[1] ?? "";
  });
  return Buffer.from(data, "base64");
}

/** Publishes a piece with `cover` uploaded as its cover; returns its slug. */
async function publishWithCover(page: Page, title: string, cover: Buffer) {
  const key = addStaff(`Imogen ${tag()}`, "writer");
  await signIn(page, key, "/dashboard/writer");
  await page.getByRole("button", { name: "New Article" }).click();
  const editor = page.getByRole("region", { name: "New Article" });
  await editor.getByLabel("Title", { exact: true }).fill(title);
  await editor
    .getByLabel("Content", { exact: true })
    .fill("A piece with a photograph on top.");
  await editor.getByLabel("Upload an image").setInputFiles({
    name: "photo.jpg",
    mimeType: "image/jpeg",
    buffer: cover,
  });
  await expect(
    editor.getByText("The uploaded image is the cover."),
  ).toBeVisible();
  await editor.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(toast(page, "Article published successfully!")).toBeVisible();
}

/** The file the browser chose for `img`, once it has loaded. */
async function chosen(page: Page, selector: string) {
  const img = page.locator(selector).first();
  await img.scrollIntoViewIfNeeded();
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth))
    .toBeGreaterThan(0);
  return img.evaluate((el: HTMLImageElement) => ({
    src: el.currentSrc,
    width: el.getAttribute("width"),
    height: el.getAttribute("height"),
    loading: el.loading,
  }));
}

test("a phone loads the 800 px WebP of an uploaded cover, not the original", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
  });
  const page = await context.newPage();
  const t = tag();
  const title = `Ballot photo ${t}`;
  const original = await photo(page);
  await publishWithCover(page, title, original);

  await open(page, `/articles?q=${t}`);
  await waitForHydration(page);
  const card = await chosen(page, "article.card img");
  expect(card.src).toMatch(/\/media\/covers\/[\w-]+\.w800\.webp$/);
  expect([card.width, card.height]).toEqual(["640", "360"]);

  const copy = await page.request.get(card.src);
  expect(copy.headers()["content-type"]).toBe("image/webp");
  const bytes = (await copy.body()).length;
  expect(bytes * 3).toBeLessThan(original.length);

  await page.locator("article.card").getByRole("link", { name: title }).click();
  const hero = await chosen(page, ".article-cover img");
  expect(hero.src).toMatch(/\.w800\.webp$/);
  expect(hero.loading).toBe("eager");
  // Social networks still get the 1200×630 JPEG card.
  const og = await page
    .locator('meta[property="og:image"]')
    .getAttribute("content");
  expect(og).toMatch(/\.jpg$/);
  await context.close();
});

test("a wide screen loads the 1200 px copy for the article's cover", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const t = tag();
  const title = `Wide photo ${t}`;
  await publishWithCover(page, title, await photo(page));
  await open(page, `/articles?q=${t}`);
  const card = await chosen(page, "article.card img");
  // Three columns of ~380 px: the 400.
  expect(card.src).toMatch(/\.w400\.webp$/);
  await open(page, `/articles?q=${t}`);
  await page.locator("article.card").getByRole("link", { name: title }).click();
  const hero = await chosen(page, ".article-cover img");
  expect(hero.src).toMatch(/\.w1200\.webp$/);
});
