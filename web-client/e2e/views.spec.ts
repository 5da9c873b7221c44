// Page views that mean something (issue 30): a class of 25 identical browsers
// behind one school address counts 25 views of the article they all open, and
// one of them reloading it ten times adds none. Each tab keeps a random marker
// in its sessionStorage; nothing else identifies the reader.
import { expect, test, type Page } from "@playwright/test";
import { addStaff, signIn, tag, toast } from "./staff-support";

const CHROMEBOOK =
  "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

async function loadCounted(page: Page, path: string, reload = false) {
  const beacon = page.waitForResponse(
    (r) => r.url().endsWith("/api/v1/views") && r.request().method() === "POST",
  );
  if (reload) await page.reload();
  else await page.goto(path);
  expect((await beacon).status()).toBe(204);
}

test("25 readers on one address are 25 views; a tab's reloads are not", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const t = tag();
  const writer = `Wren ${t}`;
  addStaff(writer, "writer");
  const director = await (await browser.newContext()).newPage();
  await signIn(
    director,
    addStaff(`Dana ${t}`, "content-director"),
    "/dashboard/content-director",
  );
  await director.getByRole("button", { name: "New Article" }).click();
  const editor = director.getByRole("region", { name: "New Article" });
  await editor.getByLabel("Writer").selectOption({ label: writer });
  const title = `Class views ${t}`;
  await editor.getByLabel("Title", { exact: true }).fill(title);
  await editor.getByLabel("Content", { exact: true }).fill("Read in class.");
  await editor.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(
    toast(director, "Article published successfully!"),
  ).toBeVisible();
  const path =
    (await director
      .getByRole("link", { name: title })
      .first()
      .getAttribute("href")) ?? "";
  expect(path).toMatch(/^\/article\//);

  // 25 identical Chromebooks (same browser, same address): each loads the page.
  const readers: Page[] = [];
  for (let i = 0; i < 25; i++) {
    const reader = await (
      await browser.newContext({ userAgent: CHROMEBOOK })
    ).newPage();
    await loadCounted(reader, path);
    readers.push(reader);
  }
  // The first reloads ten times.
  const first = readers[0];
  if (!first) throw new Error("no reader");
  for (let i = 0; i < 10; i++) await loadCounted(first, path, true);
  for (const reader of readers) await reader.context().close();

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, addStaff(`Ada ${t}`, "admin"), "/dashboard/admin");
  const slug = path.replace("/article/", "");
  await expect
    .poll(
      async () => {
        const r = await admin.request.get("/api/v1/staff/stats?tz=UTC");
        const stats = (await r.json()) as {
          top_articles: { slug: string; views: number }[];
        };
        return stats.top_articles.find((a) => a.slug === slug)?.views ?? 0;
      },
      { timeout: 20_000 },
    )
    .toBe(25);
});
