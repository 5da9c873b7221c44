// The admin dashboard (page views, magazine issues, staff keys) and the
// educator's, in the browser against the real app. Runs in the "staff"
// project: it adds staff members and records page views.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { open, recordConsole } from "./support";
import {
  PNG,
  addStaff,
  pdf,
  signIn,
  tag,
  toast,
  uploadMagazine,
} from "./staff-support";

async function signInAsNewAdmin(page: Page): Promise<void> {
  await signIn(
    page,
    addStaff(`E2E Admin ${tag()}`, "admin"),
    "/dashboard/admin",
  );
}

function statValue(page: Page, label: string) {
  return page
    .locator(".stat-card")
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator(".stat-value");
}

async function figure(page: Page, label: string): Promise<number> {
  const text = (await statValue(page, label).textContent()) ?? "";
  return Number(text.replace(/,/g, ""));
}

/**
 * Resolves once the page has sent its page-view beacon and the server took it.
 * The beacon goes from an effect after React commits the page, so a test that
 * moves on as soon as the page is live could leave before it is sent.
 */
function beaconSent(page: Page): Promise<unknown> {
  return page
    .waitForResponse(
      (r) =>
        r.url().endsWith("/api/v1/views") && r.request().method() === "POST",
    )
    .then((r) => expect(r.status()).toBe(204));
}

/** Reads public pages as a new reader (own browser signature), partly in-app. */
async function readAsVisitor(browser: Browser): Promise<void> {
  const context = await browser.newContext({
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AgoraReader/${tag()}`,
  });
  const page = await context.newPage();
  // Each page load and each in-app navigation sends the beacon.
  for (const path of ["/", "/about"]) {
    const sent = beaconSent(page);
    await open(page, path);
    await sent;
  }
  const sent = beaconSent(page);
  await page
    .getByRole("banner")
    .getByRole("link", { name: "Articles", exact: true })
    .click();
  await expect(page).toHaveURL(/\/articles$/);
  await sent;
  await context.close();
}

test.describe("admin dashboard", () => {
  test("page views: the cards follow what readers do", async ({
    page,
    browser,
  }) => {
    test.setTimeout(60_000);
    await signInAsNewAdmin(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Admin Dashboard",
    );
    await expect(statValue(page, "Total Page Views")).toHaveText(/^[\d,]+$/);
    const total = await figure(page, "Total Page Views");
    const today = await figure(page, "Views Today");
    expect(today).toBeLessThanOrEqual(total);
    await expect(statValue(page, "Magazines")).toHaveText(/^\d+$/);

    await readAsVisitor(browser);

    // Views are written in batches every few seconds (a refresh may land
    // between two writes, so both figures are polled together).
    await expect
      .poll(
        async () => {
          await page.getByRole("button", { name: "Refresh" }).click();
          await expect(
            page.getByRole("button", { name: "Refresh" }),
          ).toBeEnabled();
          return [
            (await figure(page, "Total Page Views")) - total,
            (await figure(page, "Views Today")) - today,
          ].every((gained) => gained >= 3);
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await expect(page.getByText(/Views per day, last 30 days/)).toBeVisible();
    // Dashboard visits are not page views.
    await page.reload();
    await expect(statValue(page, "Total Page Views")).toHaveText(/^[\d,]+$/);
  });

  test("a time zone the server does not know falls back to UTC", async ({
    page,
  }) => {
    // The suite's browser is in America/New_York; pretend the server lacks it.
    await page.route(/\/api\/v1\/staff\/stats\?tz=America/, (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({
          code: "unknown_time_zone",
          message: "Unknown time zone",
        }),
      }),
    );
    await signInAsNewAdmin(page);
    await expect(page.getByText(/Views per day, last 30 days/)).toContainText(
      "(UTC)",
    );
    await expect(statValue(page, "Views Today")).toHaveText(/^[\d,]+$/);
    await expect(page.locator(".toasts").getByText("Error")).toHaveCount(0);
  });

  test("uploads a magazine with progress, serves, renames and deletes it", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signInAsNewAdmin(page);
    await expect(statValue(page, "Magazines")).toHaveText(/^\d+$/);
    const before = await figure(page, "Magazines");
    const issue = `Issue ${tag()}`;

    // A slow uplink, so that the progress bar has time to show.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });
    await page.getByLabel("Magazine PDF").setInputFiles({
      name: `${issue}.pdf`,
      mimeType: "application/pdf",
      buffer: pdf(2 * 1024 * 1024, issue),
    });
    const bar = page.getByRole("progressbar");
    await expect(bar).toBeVisible();
    await expect(page.getByText(/Uploading… \d+%/)).toBeVisible();
    await expect(toast(page, "Magazine uploaded successfully!")).toBeVisible({
      timeout: 30_000,
    });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect(bar).toBeHidden();
    await expect(statValue(page, "Magazines")).toHaveText(String(before + 1));

    // The same file again, under another name: the admin is told which issue it already is.
    await page.getByLabel("Magazine PDF").setInputFiles({
      name: "copy.pdf",
      mimeType: "application/pdf",
      buffer: pdf(2 * 1024 * 1024, issue),
    });
    await expect(
      page
        .locator(".toast")
        .filter({ hasText: "Failed to upload magazine." })
        .filter({
          hasText: `This PDF has already been uploaded as \u201c${issue}\u201d.`,
        }),
    ).toBeVisible({ timeout: 30_000 });
    await expect(statValue(page, "Magazines")).toHaveText(String(before + 1));

    const table = page.getByRole("table", { name: /Magazines \(\d+\)/ });
    const row = table
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: issue }) });
    await expect(row).toHaveCount(1);
    await expect(table.getByRole("row").nth(1)).toContainText(issue); // newest first
    const view = row.getByRole("link", { name: `View ${issue}` });
    await expect(view).toHaveAttribute("target", "_blank");
    const href = (await view.getAttribute("href")) ?? "";
    const served = await page.request.get(href);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("application/pdf");
    expect(served.headers()["content-disposition"]).toMatch(/^inline/);
    // The PDF's own scripts run sandboxed (an opaque origin, not ours); that
    // the browser's PDF viewer still opens it is pdf-viewer.spec.ts.
    expect(served.headers()["content-security-policy"]).toMatch(/\bsandbox\b/);

    // Rename in place.
    const renamed = `${issue} (renamed)`;
    await row.getByRole("button", { name: `Rename ${issue}` }).click();
    await page.getByLabel(`New title for ${issue}`).fill(renamed);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Magazine renamed.")).toBeVisible();
    await expect(table.getByRole("rowheader", { name: renamed })).toBeVisible();

    // Delete after confirming.
    page.once("dialog", (dialog) => void dialog.accept());
    await table
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: renamed }) })
      .getByRole("button", { name: `Delete ${renamed}` })
      .click();
    await expect(toast(page, "Magazine deleted.")).toBeVisible();
    await expect(table.getByRole("rowheader", { name: renamed })).toHaveCount(
      0,
    );
    await expect(statValue(page, "Magazines")).toHaveText(String(before));
  });

  test("publishes an issue for readers and sends its announcement, with progress", async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(90_000);
    // Before the first issue, /magazine is the launch page.
    const reader = await browser.newPage({
      viewport: { width: 390, height: 844 },
    });
    await open(reader, "/magazine");
    await expect(
      reader.getByRole("heading", { name: "Launching this December" }),
    ).toBeVisible();
    for (const who of ["ida", "jon"]) {
      const r = await request.post("/api/v1/notify", {
        data: { email: `${who}-${tag()}@example.org`, list: "magazine" },
      });
      expect(r.status()).toBe(200);
    }

    await signInAsNewAdmin(page);
    const title = `Issue ${tag()}`;
    await uploadMagazine(page, title);
    const row = page
      .getByRole("table", { name: /Magazines/ })
      .getByRole("row")
      .filter({ hasText: title });
    await expect(row).toContainText("Draft");
    await row.getByRole("button", { name: `Publish ${title}` }).click();
    const form = page.getByRole("region", { name: `Publish “${title}”` });
    await form.getByLabel("Issue date").fill("2026-12-01");
    await form
      .getByLabel("Short description")
      .fill("Climate talks, a youth parliament and the student vote.");
    await form.getByRole("button", { name: "Publish issue" }).click();
    // Said at the cover field, which takes the focus.
    const coverField = form.getByLabel("Cover image");
    await expect(coverField).toHaveAccessibleDescription(
      "Please upload a cover image for the issue.",
    );
    await expect(coverField).toBeFocused();
    await form.getByLabel("Cover image").setInputFiles({
      name: "cover.png",
      mimeType: "image/png",
      buffer: PNG,
    });
    await expect(
      form.getByRole("img", { name: "The issue's cover" }),
    ).toBeVisible();
    await form.getByRole("button", { name: "Publish issue" }).click();
    await expect(toast(page, "Issue published.")).toBeVisible();
    await expect(row.getByRole("link", { name: "Published" })).toBeVisible();
    // At 1280 px the table shows every column: nothing scrolls sideways or
    // sits under the row's buttons, however many there are.
    const scroller = page
      .locator(".table-scroll")
      .filter({ has: page.getByRole("table", { name: /Magazines/ }) });
    expect(
      await scroller.evaluate((el) => el.scrollWidth - el.clientWidth),
    ).toBeLessThanOrEqual(0);
    const status = await row
      .getByRole("link", { name: "Published" })
      .boundingBox();
    const actions = await row.locator(".actions-cell").boundingBox();
    expect(status && actions && status.x + status.width <= actions.x).toBe(
      true,
    );

    // The launch email opens next: its preview, the count, then Send and progress.
    const announce = page.getByRole("region", { name: `Announce “${title}”` });
    await expect(announce).toContainText(`Subject: New from`);
    await expect(announce).toContainText(title);
    const count = Number(
      ((await announce.locator("strong").first().textContent()) ?? "").split(
        " ",
      )[0],
    );
    expect(count).toBeGreaterThanOrEqual(2);
    await announce
      .getByRole("button", { name: `Send to ${count} subscribers` })
      .click();
    await expect(announce.getByRole("status")).toContainText(
      `Queued ${count} of ${count}`,
      { timeout: 30_000 },
    );
    await expect(announce).toContainText("Done. Each subscriber got it once.", {
      timeout: 30_000,
    });
    await expect(announce.getByRole("button", { name: /Send to/ })).toHaveCount(
      0,
    );

    // Readers now see the issue first, and its own page.
    await open(reader, "/magazine");
    await expect(reader.getByRole("heading", { level: 1 })).toHaveText(title);
    await reader.getByRole("link", { name: "Read the issue" }).click();
    await expect(reader).toHaveURL(/\/magazine\/issue-/);
    await expect(reader.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(
      reader.getByRole("link", { name: /Download PDF/ }),
    ).toHaveAttribute("href", /\/media\/magazines\/.+\.pdf$/);
    await reader.close();
  });

  test("a PNG named .pdf is refused by the server", async ({ page }) => {
    await signInAsNewAdmin(page);
    await expect(statValue(page, "Magazines")).toHaveText(/^\d+$/);
    const before = await figure(page, "Magazines");
    await page.getByLabel("Magazine PDF").setInputFiles({
      name: "not-really.pdf",
      mimeType: "application/pdf",
      buffer: PNG,
    });
    await expect(toast(page, "Failed to upload magazine.")).toBeVisible();
    await expect(toast(page, "Please upload a PDF file.")).toBeVisible();
    await expect(statValue(page, "Magazines")).toHaveText(String(before));
  });

  test("adds a writer, rotates their key; the old key stops working", async ({
    page,
    browser,
  }) => {
    test.setTimeout(60_000);
    await signInAsNewAdmin(page);
    const name = `E2E Staff ${tag()}`;
    // An empty name is refused at the field, as the public forms do it.
    const nameField = page.getByLabel("Name", { exact: true });
    await page.getByRole("button", { name: "Add Staff Member" }).click();
    await expect(nameField).toHaveAccessibleDescription(
      "Please enter the staff member's name.",
    );
    await expect(nameField).toHaveAttribute("aria-invalid", "true");
    await expect(nameField).toBeFocused();
    // A failed attempt leaves an error message; the next attempt takes it away.
    await nameField.fill(name);
    await page.route(
      "**/api/v1/staff/members",
      (route) =>
        route.fulfill({
          status: 503,
          json: { code: "unavailable", message: "Please try again." },
        }),
      { times: 1 },
    );
    await page.getByRole("button", { name: "Add Staff Member" }).click();
    await expect(page.locator(".toast-destructive")).toContainText(
      "Failed to add staff member",
    );
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Role").selectOption("writer");
    await page.getByRole("button", { name: "Add Staff Member" }).click();
    const key = page.getByLabel("Access key");
    await expect(key).toHaveText(/^\S{20,}$/);
    const firstKey = (await key.textContent()) ?? "";
    await expect(page.getByRole("button", { name: "Copy" })).toBeVisible();
    await expect(page.locator(".toast-destructive")).toHaveCount(0);
    await expect(nameField).not.toHaveAttribute("aria-invalid", "true");
    const row = page
      .getByRole("table", { name: /Staff \(\d+\)/ })
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name }) });
    await expect(row).toContainText("writer");
    await expect(row).toContainText("Active");
    await expect(row).toContainText("Never");
    await page.getByRole("button", { name: "Done" }).click();
    await expect(key).toHaveCount(0);

    // The new writer can sign in.
    const writer = await browser.newContext();
    const writerPage = await writer.newPage();
    await signIn(writerPage, firstKey, "/dashboard/writer");

    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: `Rotate key for ${name}` }).click();
    await expect(key).toHaveText(/^\S{20,}$/);
    const secondKey = (await key.textContent()) ?? "";
    expect(secondKey).not.toBe(firstKey);

    // The old key and its session are over; the new key works.
    await writerPage.reload();
    await expect(writerPage).toHaveURL(/\/key-login$/);
    await writerPage.getByLabel("Access Key").fill(firstKey);
    await writerPage.getByRole("button", { name: "Sign In" }).click();
    await expect(toast(writerPage, "Login Failed")).toBeVisible();
    await signIn(writerPage, secondKey, "/dashboard/writer");

    // Disable ends the session at once; enable lets them back.
    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: `Disable ${name}` }).click();
    await expect(toast(page, `${name} is disabled.`)).toBeVisible();
    await expect(row).toContainText("Disabled");
    await writerPage.reload();
    await expect(writerPage).toHaveURL(/\/key-login$/);
    await row.getByRole("button", { name: `Enable ${name}` }).click();
    await expect(row).toContainText("Active");
    await signIn(writerPage, secondKey, "/dashboard/writer");
    await writer.close();
  });

  test("no console errors, no axe violations", async ({ page }) => {
    const logged = recordConsole(page);
    await signInAsNewAdmin(page);
    await expect(page.getByText(/Views per day/)).toBeVisible();
    await expect(page.getByRole("table", { name: /Staff/ })).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    expect(logged).toEqual([]);
    await page.screenshot({
      path: "test-results/screens/admin-dashboard.png",
      fullPage: true,
    });
  });
});

test.describe("educator dashboard", () => {
  test("before the launch: real figures only, and Download says the packs are not launched", async ({
    page,
  }) => {
    await signIn(
      page,
      addStaff(`E2E Educator ${tag()}`, "educator"),
      "/dashboard/educator",
    );
    await expect(statValue(page, "Packs available")).toHaveText("0");
    await expect(statValue(page, "Total downloads")).toHaveText("0");
    // No figure we cannot know.
    await expect(page.getByText("Students reached")).toHaveCount(0);
    const packs = page.locator(".pack-item");
    await expect(packs).toHaveCount(3);
    const expected = ["High School", "Advanced", "Middle School"];
    for (const [index, level] of expected.entries()) {
      await expect(packs.nth(index)).toContainText(`${level} · 0 downloads`);
    }
    await expect(page.getByRole("main")).not.toContainText("January");
    await packs
      .first()
      .getByRole("button", { name: /^Download/ })
      .click();
    await expect(toast(page, "Not launched yet")).toBeVisible();
    await page.screenshot({
      path: "test-results/screens/educator-dashboard.png",
      fullPage: true,
    });
  });
});

// Last in the file: after the launch, the packs are no longer "coming soon".
test.describe("educational packs launch", () => {
  test("the admin uploads the packs and launches them; readers and educators download them", async ({
    page,
    browser,
  }) => {
    await signInAsNewAdmin(page);
    const panel = page.getByRole("region", { name: "Educational Packs" });
    for (const title of [
      "How Democracy Works",
      "Climate Policy and Global Cooperation",
      "Human Rights in Everyday Life",
    ]) {
      await panel.getByLabel(`Upload PDF for ${title}`).setInputFiles({
        name: `${title}.pdf`,
        mimeType: "application/pdf",
        buffer: pdf(2048, title),
      });
      await expect(toast(page, `“${title}” uploaded.`)).toBeVisible();
    }
    await expect(panel.getByRole("link", { name: /^PDF, / })).toHaveCount(3);
    page.once("dialog", (dialog) => void dialog.accept());
    await panel.getByRole("button", { name: "Launch packs" }).click();
    await expect(toast(page, "Packs launched.")).toBeVisible();
    const announce = page.getByRole("region", {
      name: "Announce the packs' launch",
    });
    await expect(announce).toContainText("To the packs list");

    const reader = await browser.newPage({
      viewport: { width: 390, height: 844 },
    });
    await open(reader, "/educational-packs");
    await expect(
      reader.getByRole("heading", { name: "Download the packs" }),
    ).toBeVisible();
    await expect(
      reader.getByRole("heading", { name: "Launching this January" }),
    ).toHaveCount(0);
    const downloads = reader.getByRole("link", { name: /^Download/ });
    await expect(downloads).toHaveCount(3);
    const served = await reader.request.get(
      (await downloads.first().getAttribute("href")) ?? "",
    );
    expect(served.headers()["content-type"]).toBe("application/pdf");
    await reader.close();

    // Educators' downloads are counted, once per educator, pack and day.
    const educator = await browser.newPage();
    await signIn(
      educator,
      addStaff(`E2E Educator ${tag()}`, "educator"),
      "/dashboard/educator",
    );
    await expect(statValue(educator, "Packs available")).toHaveText("3");
    const first = educator.locator(".pack-item").first();
    const link = first.getByRole("link", { name: /^Download/ });
    const before = Number(
      (await statValue(educator, "Total downloads").innerText()).trim(),
    );
    for (let i = 0; i < 2; i++) {
      const served = await educator.request.get(
        (await link.getAttribute("href")) ?? "",
      );
      expect(served.status()).toBe(200);
      expect(served.headers()["content-type"]).toBe("application/pdf");
    }
    await educator.reload();
    await expect(statValue(educator, "Total downloads")).toHaveText(
      String(before + 1),
    );
    await expect(first).toContainText(/High School · \d+ downloads?/);
    await educator.close();
  });
});
