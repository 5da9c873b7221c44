// The layout holds at every width from a small phone to a wide desktop, signed
// out and signed in: nothing scrolls sideways, the header keeps one row from
// 360 px, sign-in panels keep a gutter, and every button of the staff tables
// is on screen.
import { expect, test, type Page } from "@playwright/test";
import { VETO, open } from "./support";
import { addStaff, signIn, tag } from "./staff-support";

const WIDTHS = [320, 360, 390, 768, 1000, 1024, 1366, 1920];

const PUBLIC_PAGES = [
  "/",
  "/articles",
  "/category/climate-justice",
  `/article/${VETO.slug}`,
  "/about",
  "/contributors",
  "/application",
  "/contact-us",
  "/magazine",
  "/educational-packs",
  "/signup",
  "/login",
  "/forgot-password",
  "/key-login",
];

async function measure(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector("header.site-header");
    const panel = document.querySelector(".auth-card")?.getBoundingClientRect();
    return {
      scrollWidth: document.documentElement.scrollWidth,
      header: Math.round(header?.getBoundingClientRect().height ?? 0),
      panel: panel ? [Math.round(panel.left), Math.round(panel.right)] : null,
    };
  });
}

/** Lets the page react to a new viewport (media queries, resize listeners) before it is measured. */
async function settle(page: Page) {
  await page.evaluate(
    () =>
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(resolve)),
      ),
  );
}

/**
 * Each page is loaded once, at the narrowest width, and then resized through
 * the others, as a phone turned sideways or a window dragged wider would be:
 * the same layout at each width as a fresh load, for an eighth of the loads.
 */
async function checkWidths(page: Page, paths: string[], who: string) {
  for (const path of paths) {
    await page.setViewportSize({ width: WIDTHS[0] ?? 320, height: 844 });
    await open(page, path);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      await settle(page);
      const { scrollWidth, header, panel } = await measure(page);
      expect(scrollWidth, `${path} at ${width} px (${who})`).toBe(width);
      if (panel) {
        // A sign-in or sign-up panel's border and corners stay inside the screen.
        const [left = 0, right = 0] = panel;
        expect(
          left,
          `${path} at ${width} px: the panel's left gutter`,
        ).toBeGreaterThanOrEqual(8);
        expect(
          right,
          `${path} at ${width} px: the panel's right gutter`,
        ).toBeLessThanOrEqual(width - 8);
      }
      if (width >= 360) {
        expect(header, `${path} at ${width} px (${who}): one header row`).toBe(
          65,
        );
      }
    }
  }
}

/** Every button and link of every table row lies within the screen. */
async function expectTableActionsInView(page: Page, label: string) {
  const width = page.viewportSize()?.width ?? 0;
  const actions = page.locator(".data-table .row-actions > *");
  const count = await actions.count();
  expect(count, `${label}: the table has actions`).toBeGreaterThan(0);
  for (let i = 0; i < count; i += 1) {
    const box = await actions.nth(i).boundingBox();
    expect(box, `${label}: action ${i} is rendered`).not.toBeNull();
    if (!box) continue;
    expect(
      box.x,
      `${label}: action ${i} starts on screen`,
    ).toBeGreaterThanOrEqual(0);
    expect(
      box.x + box.width,
      `${label}: action ${i} ends on screen (${width} px)`,
    ).toBeLessThanOrEqual(width);
  }
}

test.describe("layout at every width", () => {
  test("public pages, signed out", async ({ page }) => {
    test.setTimeout(60_000);
    await checkWidths(page, PUBLIC_PAGES, "signed out");
  });

  test("public pages and dashboards, signed in, with every table action on screen", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    for (const role of ["admin", "writer", "content-director", "educator"]) {
      const key = addStaff(`Layout ${role} ${tag()}`, role);
      await page.setViewportSize({ width: 1280, height: 800 });
      await signIn(page, key, `/dashboard/${role}`);
      const dashboard = `/dashboard/${role}`;
      await checkWidths(
        page,
        role === "admin" ? [dashboard, "/", "/articles"] : [dashboard],
        role,
      );
      // The writer's own table is empty until they write; the director's lists every article.
      if (role === "educator" || role === "writer") continue;
      await open(page, dashboard);
      for (const width of [320, 390, 768, 1000]) {
        await page.setViewportSize({ width, height: 844 });
        await settle(page);
        await expect(page.locator(".data-table").first()).toBeVisible();
        await expectTableActionsInView(page, `${role} at ${width} px`);
      }
      await page.evaluate(() => window.localStorage.clear());
      await page.context().clearCookies();
    }
  });

  test("the byline's pieces never break across lines", async ({ page }) => {
    for (const width of [320, 360, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await open(page, `/article/${VETO.slug}`);
      const pieces = await page
        .locator(".article-meta > *")
        .evaluateAll((list) =>
          list.map((e) => ({
            text: e.textContent ?? "",
            lines: e.getClientRects().length,
          })),
        );
      expect(pieces.length, "author, date and reading time").toBe(3);
      for (const piece of pieces) {
        expect(piece.lines, `"${piece.text}" at ${width} px`).toBe(1);
      }
    }
  });

  test("on a phone, a signed-in staff member signs out from the menu", async ({
    page,
  }) => {
    const key = addStaff(`Layout phone ${tag()}`, "writer");
    await signIn(page, key, "/dashboard/writer");
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, "/about");
    const header = page.getByRole("banner");
    await expect(header.getByRole("button", { name: "Logout" })).toBeHidden();
    await header.getByRole("button", { name: "Menu" }).click();
    await header.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(header.getByRole("link", { name: "Login" })).toBeVisible();
  });
});
