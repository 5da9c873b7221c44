// Staff: access-key sign-in, dashboard guards, and the article lifecycle in
// the writer and content-director dashboards, checked on the public pages.
//
// These tests publish articles for a moment, which changes the public listings
// that other specs count: run them after those (their own Playwright project,
// depending on "desktop" and "mobile"), not beside them.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { FALLBACK_COVER, cards, open } from "./support";
import { addStaff, signIn, tag, toast } from "./staff-support";

function articleRow(page: Page, title: string): Locator {
  return page
    .getByRole("table", { name: /Articles \(\d+\)/ })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: title }) });
}

/** The public address of a published article, from its title link in the table. */
async function publicPath(page: Page, title: string): Promise<string> {
  const href = await articleRow(page, title)
    .getByRole("link", { name: title })
    .getAttribute("href");
  expect(href).toMatch(/^\/article\/[\w-]+$/);
  return href ?? "";
}

test.describe("signing in", () => {
  test("a wrong key shows Login Failed", async ({ page }) => {
    await open(page, "/key-login");
    await page.getByLabel("Access Key").fill(`wrong-${tag()}`);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(toast(page, "Login Failed")).toBeVisible();
    await expect(toast(page, "Invalid access key.")).toBeVisible();
    await expect(page).toHaveURL(/\/key-login$/);
    await expect(
      page.getByRole("banner").getByRole("link", { name: "Login" }),
    ).toBeVisible();
  });

  test("the session survives a reload, and logout ends it", async ({
    page,
  }) => {
    const name = `E2E Reload ${tag()}`;
    const key = addStaff(name, "writer");
    await signIn(page, key, "/dashboard/writer");
    const banner = page.getByRole("banner");
    await expect(
      banner.getByRole("link", { name: "My Notebook" }),
    ).toHaveAttribute("href", "/dashboard/writer");
    await expect(banner.getByRole("link", { name: "Login" })).toHaveCount(0);

    // The browser keeps who is signed in, never the key.
    const stored = await page.evaluate(() =>
      window.localStorage.getItem("auth_user"),
    );
    expect(JSON.parse(stored ?? "null")).toEqual({
      id: expect.any(String),
      name,
      role: "writer",
    });
    expect(stored).not.toContain(key);

    await open(page, "/about");
    await expect(
      banner.getByRole("link", { name: "My Notebook" }),
    ).toBeVisible();
    await page.reload();
    await expect(
      banner.getByRole("link", { name: "My Notebook" }),
    ).toBeVisible();
    await open(page, "/dashboard/writer");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "My Notebook",
    );
    await expect(page.getByText(`Signed in as ${name}`)).toBeVisible();

    await banner.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(banner.getByRole("link", { name: "Login" })).toBeVisible();
    await expect(banner.getByRole("button", { name: "Logout" })).toHaveCount(0);
    expect(
      await page.evaluate(() => window.localStorage.getItem("auth_user")),
    ).toBeNull();
    await expect
      .poll(async () => (await page.request.get("/api/v1/me")).status())
      .toBe(401);
  });

  test("a session ended on the server signs the page out", async ({
    page,
    context,
  }) => {
    const key = addStaff(`E2E Expired ${tag()}`, "writer");
    await signIn(page, key, "/dashboard/writer");
    await context.clearCookies();
    await page.goto("/dashboard/writer");
    await expect(page).toHaveURL(/\/key-login$/);
    expect(
      await page.evaluate(() => window.localStorage.getItem("auth_user")),
    ).toBeNull();
    await expect(
      page.getByRole("banner").getByRole("link", { name: "Login" }),
    ).toBeVisible();
  });
});

test.describe("a moment without the database", () => {
  test("the save is sent again, the text kept, the writer still signed in", async ({
    page,
  }) => {
    const key = addStaff(`E2E Outage ${tag()}`, "writer");
    await signIn(page, key, "/dashboard/writer");
    const main = page.getByRole("main");
    await main.getByRole("button", { name: "New Article" }).click();
    const editor = main.getByRole("region", { name: "New Article" });
    const title = `Written in an outage ${tag()}`;
    await editor.getByLabel("Title", { exact: true }).fill(title);
    await editor
      .getByRole("textbox", { name: "Content" })
      .fill("Every word of this survives the outage.");
    // The server answers the first save as it does when it cannot check the
    // session: 503 service_unavailable, before doing anything.
    let refused = 0;
    await page.route("**/api/v1/staff/articles", async (route) => {
      if (route.request().method() !== "POST" || refused > 0) {
        await route.fallback();
        return;
      }
      refused += 1;
      await route.fulfill({
        status: 503,
        headers: { "retry-after": "1" },
        json: {
          code: "service_unavailable",
          message: "The server is unavailable for a moment. Please try again.",
        },
      });
    });
    await editor.getByRole("button", { name: "Save as Draft" }).click();
    await expect(page.locator(".server-notice")).toHaveText(
      "Server unavailable, retrying…",
    );
    await expect(toast(page, "Article created successfully!")).toBeVisible();
    await expect(page.locator(".server-notice")).toHaveText("");
    expect(refused).toBe(1);
    await expect(articleRow(page, title)).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/writer$/);
  });
});

test.describe("the header on every screen", () => {
  /** The header's height and whether the page scrolls sideways. */
  async function measure(page: Page) {
    const header = await page.locator("header.site-header").boundingBox();
    const scrollWidth = await page.evaluate(
      () => document.documentElement.scrollWidth,
    );
    return { height: Math.round(header?.height ?? 0), scrollWidth };
  }

  test("one row on phones signed out; no sideways scroll on a tablet signed in", async ({
    page,
  }) => {
    // iPhone 12-15 (390 px), the common Android width (360 px) and a Pixel 7.
    for (const width of [390, 360, 412]) {
      await page.setViewportSize({ width, height: 844 });
      await open(page, "/");
      const nav = page.getByRole("navigation", { name: "Main" });
      const menu = await nav
        .getByRole("button", { name: "Menu" })
        .boundingBox();
      const login = await page
        .getByRole("link", { name: "Login" })
        .boundingBox();
      const middle = (box: { y: number; height: number } | null) =>
        Math.round((box?.y ?? -100) + (box?.height ?? 0) / 2);
      expect(middle(menu), `${width} px: same row`).toBe(middle(login));
      expect(await measure(page), `${width} px`).toEqual({
        height: 65, // 64 px and the bottom border
        scrollWidth: width,
      });
    }
    // An iPad in landscape, signed in: the menu button, and nothing wider than the screen.
    const key = addStaff(`Header ${tag()}`, "writer");
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, key, "/dashboard/writer");
    for (const width of [1024, 1000, 1179, 1180, 1280]) {
      await page.setViewportSize({ width, height: 768 });
      await open(page, "/about");
      const { height, scrollWidth } = await measure(page);
      expect(scrollWidth, `${width} px signed in`).toBe(width);
      expect(height, `${width} px signed in: one row`).toBe(65);
    }
  });
});

test.describe("dashboard guards", () => {
  for (const role of ["admin", "writer", "educator", "content-director"]) {
    test(`signed out, /dashboard/${role} goes to /key-login`, async ({
      page,
    }) => {
      await page.goto(`/dashboard/${role}`);
      await expect(page).toHaveURL(/\/key-login$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "Access Key Login",
      );
    });
  }

  test("an educator opening the admin dashboard is told whose it is and led to theirs", async ({
    page,
  }) => {
    const name = `E2E Guard ${tag()}`;
    const key = addStaff(name, "educator");
    await signIn(page, key, "/dashboard/educator");
    await page.goto("/dashboard/admin");
    await expect(page).toHaveURL(/\/dashboard\/admin$/);
    await expect(page.getByRole("alert")).toHaveText(
      `This dashboard is for admins. You are signed in as ${name}, an educator.`,
    );
    // Nothing of the admin's dashboard is shown.
    await expect(page.getByRole("table")).toHaveCount(0);
    await page
      .getByRole("link", { name: "Go to your Educator Dashboard" })
      .click();
    await expect(page).toHaveURL(/\/dashboard\/educator$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Educator Dashboard",
    );
  });

  test("the educator lands on their dashboard, labelled Dashboard", async ({
    page,
  }) => {
    const key = addStaff(`E2E Educator ${tag()}`, "educator");
    await signIn(page, key, "/dashboard/educator");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Educator Dashboard",
    );
    await expect(
      page.getByRole("banner").getByRole("link", { name: "Dashboard" }),
    ).toHaveAttribute("href", "/dashboard/educator");
    await expect(
      page.getByRole("heading", { name: "Educational Packs" }),
    ).toBeVisible();
  });
});

test.describe("writer dashboard", () => {
  test("draft, preview, publish, back to draft, delete", async ({ page }) => {
    test.setTimeout(90_000);
    const key = addStaff(`E2E Writer ${tag()}`, "writer");
    const word = `zephyr${tag()}`;
    const title = `Notebook test ${word}`;
    await signIn(page, key, "/dashboard/writer");

    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "My Notebook",
    );
    await expect(
      main.getByRole("heading", { name: "Your Articles (0)" }),
    ).toBeVisible();
    await expect(main.getByText("No articles yet")).toBeVisible();

    await main.getByRole("button", { name: "New Article" }).click();
    const editor = main.getByRole("region", { name: "New Article" });
    await expect(editor.getByLabel("Title", { exact: true })).toBeFocused();
    await expect(editor.getByLabel("Category")).toHaveValue("Youth Activism");
    // So has a new article's; Back closes the editor, Forward opens it again.
    await expect(page).toHaveURL(/\/dashboard\/writer\/articles\/new$/);
    await page.goBack();
    await expect(editor).toHaveCount(0);
    await page.goForward();
    await expect(editor.getByLabel("Title", { exact: true })).toBeVisible();

    // Required fields, checked in the browser.
    await editor.getByRole("button", { name: "Save as Draft" }).click();
    await expect(editor.getByText("Article title is required")).toBeVisible();
    await expect(editor.getByText("Article content is required")).toBeVisible();
    await expect(editor.getByLabel("Title", { exact: true })).toBeFocused();

    await editor.getByLabel("Title", { exact: true }).fill(`  ${title}  `);
    await editor.getByLabel("Subtitle (optional)").fill("   ");
    const content = editor.getByRole("textbox", { name: "Content" });
    await content.fill(`Votes matter for ${word}`);
    await content.evaluate((el: HTMLTextAreaElement) =>
      el.setSelectionRange(0, 5),
    );
    await editor.getByRole("button", { name: "Bold", exact: true }).click();
    await expect(content).toHaveValue(`**Votes** matter for ${word}`);
    await content.press("End");
    await content.press("Enter");
    await content.press("Enter");
    await content.pressSequentially("Why");
    await editor.getByRole("button", { name: "Heading 2" }).click();
    await expect(content).toHaveValue(`**Votes** matter for ${word}\n\n## Why`);
    await editor.getByLabel("Category").selectOption("Human Rights");

    await editor.getByRole("button", { name: "Preview", exact: true }).click();
    const preview = editor.getByRole("region", { name: "Preview" });
    await expect(preview.locator(".prose strong")).toHaveText("Votes");
    await expect(preview.getByRole("heading", { name: "Why" })).toBeVisible();
    await editor.getByRole("button", { name: "Write", exact: true }).click();

    await editor.getByRole("button", { name: "Save as Draft" }).click();
    await expect(toast(page, "Article created successfully!")).toBeVisible();
    await expect(editor).toHaveCount(0);
    await expect(
      main.getByRole("heading", { name: "Your Articles (1)" }),
    ).toBeVisible();
    const row = articleRow(page, title);
    await expect(row.getByRole("cell", { name: "Human Rights" })).toBeVisible();
    await expect(row.getByText("Draft", { exact: true })).toBeVisible();

    // Drafts are not public.
    await open(page, `/articles?q=${word}`);
    await expect(cards(page)).toHaveCount(0);

    await open(page, "/dashboard/writer");
    await articleRow(page, title)
      .getByRole("button", { name: `Publish “${title}”` })
      .click();
    await expect(toast(page, "Article published successfully!")).toBeVisible();
    await expect(
      articleRow(page, title).getByText("Published", { exact: true }),
    ).toBeVisible();
    await expect(
      articleRow(page, title).getByRole("button", { name: /^Publish/ }),
    ).toHaveCount(0);
    const path = await publicPath(page, title);

    await open(page, `/articles?q=${word}`);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).getByRole("heading")).toHaveText(title);
    await open(page, path);
    const article = page.locator("article.article");
    await expect(article.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(article.locator(".prose strong")).toHaveText("Votes");

    // Taking it off the site is its own action, said plainly: back to draft.
    await open(page, "/dashboard/writer");
    await articleRow(page, title)
      .getByRole("button", { name: `Edit “${title}”` })
      .click();
    const edit = main.getByRole("region", { name: "Edit Article" });
    await expect(edit.getByLabel("Title", { exact: true })).toHaveValue(title);
    await expect(edit.getByLabel("Category")).toHaveValue("Human Rights");
    // The editor has its own address: a reload comes back to it.
    await expect(page).toHaveURL(/\/dashboard\/writer\/articles\/[\w-]+$/);
    await page.reload();
    await expect(edit.getByLabel("Title", { exact: true })).toHaveValue(title);
    await edit
      .getByRole("button", { name: "Unpublish — save as draft" })
      .click();
    await expect(
      toast(page, "Article unpublished — saved as a draft"),
    ).toBeVisible();
    await expect(
      articleRow(page, title).getByText("Draft", { exact: true }),
    ).toBeVisible();

    await open(page, `/articles?q=${word}`);
    await expect(cards(page)).toHaveCount(0);
    await open(page, path, 404);

    await open(page, "/dashboard/writer");
    page.once("dialog", (dialog) => {
      expect(dialog.type()).toBe("confirm");
      void dialog.accept();
    });
    await articleRow(page, title)
      .getByRole("button", { name: `Delete “${title}”` })
      .click();
    await expect(toast(page, "Article deleted successfully!")).toBeVisible();
    await expect(main.getByText("No articles yet")).toBeVisible();
  });

  test("cover image: checked before upload, uploaded, or pasted with a fallback", async ({
    page,
  }) => {
    const key = addStaff(`E2E Cover ${tag()}`, "writer");
    await signIn(page, key, "/dashboard/writer");
    await page.getByRole("button", { name: "New Article" }).click();
    const editor = page.getByRole("region", { name: "New Article" });
    const upload = editor.getByLabel("Upload an image");

    await upload.setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("not an image"),
    });
    await expect(
      toast(page, "Please upload an image file (JPG, PNG, etc.)"),
    ).toBeVisible();

    await upload.setInputFiles({
      name: "huge.png",
      mimeType: "image/png",
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    await expect(
      toast(page, "Please upload an image smaller than 5MB"),
    ).toBeVisible();

    // A 1×1 PNG.
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    await upload.setInputFiles({
      name: "cover.png",
      mimeType: "image/png",
      buffer: png,
    });
    const url = editor.getByLabel("Or paste an image URL");
    // The upload is said as such; the URL box stays for a pasted address.
    await expect(
      editor.getByText("The uploaded image is the cover."),
    ).toBeVisible();
    await expect(url).toHaveValue("");
    const previewImage = editor.getByRole("img", {
      name: "Cover image preview",
    });
    await expect(previewImage).toHaveAttribute("src", /^\/media\//);
    await expect
      .poll(() =>
        previewImage.evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBeGreaterThan(0);

    await url.fill("https://127.0.0.1:9/missing.jpg");
    await expect(previewImage).toHaveAttribute("src", FALLBACK_COVER);

    await editor.getByRole("button", { name: "Cancel" }).click();
    await expect(editor).toHaveCount(0);
    await expect(page.getByText("No articles yet")).toBeVisible();
  });

  test("the dashboard and the open editor have no WCAG 2 A/AA violations", async ({
    page,
  }) => {
    const key = addStaff(`E2E Axe ${tag()}`, "writer");
    await signIn(page, key, "/dashboard/writer");
    await page.getByRole("button", { name: "New Article" }).click();
    await expect(
      page.getByRole("region", { name: "New Article" }),
    ).toBeVisible();
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa"])
      .analyze();
    const summary = results.violations.map((v) => ({
      rule: v.id,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
    expect(summary, JSON.stringify(summary, null, 2)).toEqual([]);
  });
});

test.describe("content director dashboard", () => {
  test("writes an article for a writer, who is shown as its author", async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const last = tag();
    const writer = `E2E Author ${last}`;
    // Readers see the first name and the last name's initial (issue 35).
    const byline = `E2E ${last.charAt(0).toUpperCase()}.`;
    addStaff(writer, "writer");
    const key = addStaff(`E2E Director ${tag()}`, "content-director");
    const title = `Director test ${tag()}`;
    await signIn(page, key, "/dashboard/content-director");

    const main = page.getByRole("main");
    await expect(
      main.getByRole("heading", { name: /^All Articles \(\d+\)$/ }),
    ).toBeVisible();
    await expect(
      main.getByRole("columnheader", { name: "Author" }),
    ).toBeVisible();
    await expect(
      page.getByRole("banner").getByRole("link", { name: "My Notebook" }),
    ).toHaveAttribute("href", "/dashboard/content-director");

    await main.getByRole("button", { name: "New Article" }).click();
    const editor = main.getByRole("region", { name: "New Article" });
    await editor.getByLabel("Title", { exact: true }).fill(title);
    await editor
      .getByRole("textbox", { name: "Content" })
      .fill("Written *on behalf* of a writer.");
    await editor.getByRole("button", { name: "Publish", exact: true }).click();
    await expect(
      editor.getByText("Please select a writer for the article"),
    ).toBeVisible();
    await expect(editor.getByLabel("Writer")).toBeFocused();

    await editor.getByLabel("Writer").selectOption({ label: writer });
    await editor.getByRole("button", { name: "Publish", exact: true }).click();
    await expect(toast(page, "Article published successfully!")).toBeVisible();
    const row = articleRow(page, title);
    await expect(row.getByRole("cell", { name: writer })).toBeVisible();

    const path = await publicPath(page, title);
    await open(page, path);
    await expect(page.locator("article.article a.article-author")).toHaveText(
      byline,
    );
    await expect(page.getByText(writer)).toHaveCount(0);

    await open(page, "/dashboard/content-director");
    page.once("dialog", (dialog) => void dialog.accept());
    await articleRow(page, title)
      .getByRole("button", { name: `Delete “${title}”` })
      .click();
    await expect(toast(page, "Article deleted successfully!")).toBeVisible();
    await expect(articleRow(page, title)).toHaveCount(0);
  });
});
