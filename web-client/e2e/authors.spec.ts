// Contributor pages on the commonest phone: a writer fills in their public
// profile (a bio holding markup that must stay text), publishes, and a reader
// follows the byline to their page; the writer then chooses their full name,
// and the content director edits the bio from their own dashboard.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { open } from "./support";
import { PNG, addStaff, signIn, tag, toast } from "./staff-support";

test.use({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
});

/** Markup a bio might hold: it must show as typed and never run. */
const PAYLOAD = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>`;

async function profilePanel(page: Page) {
  const panel = page.locator("details", { hasText: "Public profile" });
  await panel.locator("summary").click();
  await expect(panel.getByLabel("Bio")).toBeVisible();
  return panel;
}

async function notRun(page: Page) {
  expect(
    await page.evaluate(() => (window as { __pwned?: number }).__pwned),
  ).toBeUndefined();
}

test("a writer's profile, their page from the byline, their full name by choice, the desk's edit", async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  const t = tag();
  const first = `Rosa${t}`;
  const full = `${first} Lindqvist`;
  const short = `${first} L.`;
  const title = `Youth councils ${t}: who listens?`;
  const bio = `I cover youth councils.\nStill learning ${PAYLOAD}`;
  const key = addStaff(full, "writer");
  await signIn(page, key, "/dashboard/writer");

  // The profile starts with the shorter name; its address never holds the last name.
  let panel = await profilePanel(page);
  await expect(
    panel.getByLabel(`${short} (first name and initial)`),
  ).toBeChecked();
  const link = panel.getByRole("link", { name: /^\/author\// });
  const path = (await link.textContent()) ?? "";
  expect(path).toMatch(
    new RegExp(`^/author/${first.toLowerCase()}-l(-\\d+)?$`),
  );
  await panel.getByLabel("Bio").fill(bio);
  await panel.getByLabel("Photo (optional)").setInputFiles({
    name: "me.png",
    mimeType: "image/png",
    buffer: PNG,
  });
  await expect(
    panel.getByRole("button", { name: "Remove photo" }),
  ).toBeVisible();
  await panel.getByRole("button", { name: "Save profile" }).click();
  await expect(toast(page, "Profile saved")).toBeVisible();

  // Nothing published yet: no page.
  const none = await page.request.get(path);
  expect(none.status()).toBe(404);

  // Published: a reader reaches the page from the byline.
  await page.getByRole("button", { name: "New Article" }).click();
  const editor = page.getByRole("region", { name: "New Article" });
  await editor.getByLabel("Title", { exact: true }).fill(title);
  await editor
    .getByRole("textbox", { name: "Content" })
    .fill("The council met twice this term.");
  await editor.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(toast(page, "Article published successfully!")).toBeVisible();

  const reader = await (await browser.newContext()).newPage();
  await open(reader, `/articles?q=${encodeURIComponent(t)}`);
  await reader.getByRole("link", { name: title }).click();
  const byline = reader.locator("a.article-author");
  await expect(byline).toHaveText(short);
  await byline.click();
  await expect(reader).toHaveURL(new RegExp(`${path}$`));
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(short);
  await expect(reader.getByText("I cover youth councils.")).toBeVisible();
  await expect(
    reader.getByRole("img", { name: `Photo of ${short}` }),
  ).toHaveAttribute("src", /^\/media\/covers\/[\w-]+\.png$/);
  await expect(reader.getByText(`Still learning ${PAYLOAD}`)).toBeVisible();
  await expect(reader.getByRole("link", { name: title })).toBeVisible();
  await expect(reader.getByText("Lindqvist")).toHaveCount(0);
  await notRun(reader);

  // The page as the server sends it (a fresh load): the same, still inert.
  await open(reader, path);
  await expect(reader.getByText(`Still learning ${PAYLOAD}`)).toBeVisible();
  await expect(reader.locator("main img[src='x']")).toHaveCount(0);
  await notRun(reader);
  const axe = await new AxeBuilder({ page: reader }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // She chooses her full name: her byline and page follow.
  await page.reload();
  panel = await profilePanel(page);
  await panel.getByLabel(`${full} (full name)`).check();
  await panel.getByRole("button", { name: "Save profile" }).click();
  await expect(toast(page, "Profile saved")).toBeVisible();
  await open(reader, path);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(full);

  // The content director edits her bio from their own dashboard.
  const director = await (await browser.newContext()).newPage();
  await signIn(
    director,
    addStaff(`Dana ${t}`, "content-director"),
    "/dashboard/content-director",
  );
  const desk = await profilePanel(director);
  await desk.getByLabel("Whose profile").selectOption({ label: full });
  await expect(desk.getByLabel("Bio")).toHaveValue(bio);
  await desk.getByLabel("Bio").fill("Covers youth councils for the desk.");
  await desk.getByRole("button", { name: "Save profile" }).click();
  await expect(toast(director, "Profile saved")).toBeVisible();
  await open(reader, path);
  await expect(
    reader.getByText("Covers youth councils for the desk."),
  ).toBeVisible();
});
