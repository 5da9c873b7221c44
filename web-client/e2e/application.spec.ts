// The contributor application form (/application) against the real server.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { statSync } from "node:fs";
import { messagesTo } from "./mail";
import { addStaff, tag } from "./staff-support";
import { holdRequests, open, recordConsole, rootMarkup } from "./support";

/** A toast by its title and, when given, its message. */
function toast(page: Page, title: string, message?: string) {
  const byTitle = page.locator(".toast").filter({ hasText: title });
  return message ? byTitle.filter({ hasText: message }) : byTitle;
}

/** A tiny but real PDF: the server checks documents by content. */
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" +
    "2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" +
    "trailer\n<< /Root 1 0 R >>\n%%EOF\n",
);

function pdf(name: string) {
  return { name, mimeType: "application/pdf", buffer: PDF };
}

function form(page: Page): Locator {
  return page.locator("form.application-form");
}

function role(page: Page, name: string): Locator {
  return form(page).getByRole("checkbox", { name, exact: true });
}

function section(page: Page, name: string): Locator {
  return form(page).getByRole("group", { name, exact: true });
}

async function submit(page: Page) {
  await form(page).getByRole("button", { name: "Submit Application" }).click();
}

async function fillPersonal(page: Page, overrides: { age?: string } = {}) {
  const f = form(page);
  await f.getByLabel("Full Name").fill("Ada Student");
  await f.getByLabel("Age").fill(overrides.age ?? "16");
  await f.getByLabel("Country").fill("Kenya");
  await f.getByLabel("Email").fill("ada@school.example");
  await f.getByLabel("Time Zone").fill("Africa/Nairobi");
  await f.getByLabel("Weekly Availability (hours)").fill("4");
  await f.getByLabel("English Level").selectOption("C1");
}

async function fillAnswers(page: Page) {
  const f = form(page);
  await f.getByLabel("Why do you want to join us?").fill("To learn.");
  await f
    .getByLabel("What would you like to contribute?")
    .fill("Careful explainers.");
}

test("the form renders on the server, hydrates cleanly and passes axe", async ({
  page,
  request,
}) => {
  const html = await (await request.get("/application")).text();
  const markup = rootMarkup(html);
  for (const id of ["fullName", "englishLevel", "cv", "whyJoin"]) {
    expect(markup).toContain(`id="application-${id}"`);
  }

  const entries = recordConsole(page);
  await open(page, "/application");
  await expect(page).toHaveTitle(/^Contributor Application \|/);
  await expect(form(page).getByRole("heading", { level: 2 })).toContainText([
    "Personal Information",
    "Role Application",
    "Documents",
    "Tell Us About Yourself",
  ]);
  // Every conditional section on show too.
  for (const name of [
    "Graphic Designer",
    "Editorial Writer",
    "Research Assistant",
  ]) {
    await role(page, name).check();
  }
  await page.getByLabel("Portfolio link").fill("https://ada.art");
  await page.getByLabel("Writing Samples file").setInputFiles(pdf("w.pdf"));
  await page.waitForLoadState("networkidle");
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa"])
    .analyze();
  const summary = results.violations.map((v) => ({
    rule: v.id,
    targets: v.nodes.map((n) => n.target.join(" ")),
    details: v.nodes.map((n) => n.failureSummary ?? ""),
  }));
  expect(summary, JSON.stringify(summary, null, 2)).toEqual([]);
  expect(entries, entries.map((e) => e.text).join("\n")).toEqual([]);
});

test("sample sections follow the roles", async ({ page }) => {
  await open(page, "/application");
  const portfolio = section(page, "Portfolio");
  const writing = section(page, "Writing Samples");
  const research = section(page, "Research Samples (optional)");
  for (const s of [portfolio, writing, research])
    await expect(s).toHaveCount(0);
  await expect(page.getByLabel("CV / Resume (optional)")).toHaveAttribute(
    "accept",
    ".pdf,.doc,.docx",
  );
  await expect(form(page)).toContainText("PDF, DOC or DOCX, up to 10MB");

  await role(page, "Graphic Designer").check();
  await expect(portfolio).toBeVisible();
  await role(page, "Design Director").check();
  await role(page, "Graphic Designer").uncheck();
  await expect(portfolio).toBeVisible();
  await role(page, "Design Director").uncheck();
  await expect(portfolio).toHaveCount(0);

  await role(page, "Editorial Writer").check();
  await expect(writing).toBeVisible();
  await role(page, "Editorial Writer").uncheck();
  await expect(writing).toHaveCount(0);
  await role(page, "Educational Pack Developer").check();
  await expect(writing).toBeVisible();

  await role(page, "Research Assistant").check();
  await expect(research).toBeVisible();
  await role(page, "Copy Editor").check();
  await expect(portfolio).toHaveCount(0);
  await role(page, "Research Assistant").uncheck();
  await expect(research).toHaveCount(0);
  await expect(writing).toBeVisible();
});

test("a link and a file exclude each other", async ({ page }) => {
  await open(page, "/application");
  await role(page, "Graphic Designer").check();
  const link = page.getByLabel("Portfolio link");
  const file = page.getByLabel("Portfolio file");

  await link.fill("https://ada.art");
  await expect(file).toBeDisabled();
  await link.fill("");
  await expect(file).toBeEnabled();

  await file.setInputFiles(pdf("portfolio.pdf"));
  const chosen = section(page, "Portfolio").getByRole("group", {
    name: "Portfolio file",
  });
  await expect(chosen).toContainText("portfolio.pdf");
  await expect(link).toBeDisabled();
  await expect(link).toHaveValue("");
  const remove = chosen.getByRole("button", { name: "Remove portfolio.pdf" });
  await expect(remove).toBeFocused();

  await remove.click();
  await expect(chosen).toHaveCount(0);
  await expect(file).toBeEnabled();
  await expect(file).toBeFocused();
  await expect(link).toBeEnabled();
  await link.fill("https://ada.art/work");
  await expect(file).toBeDisabled();

  // A file of the wrong kind is turned down before anything is sent.
  await page.getByLabel("CV / Resume (optional)").setInputFiles({
    name: "cv.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("not a document"),
  });
  await expect(
    toast(page, "Unsupported File", "Your CV must be a PDF, DOC or DOCX file."),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
});

test("checks the fields in the spec's order", async ({ page }) => {
  await open(page, "/application");
  const steps: [title: string, message: string, fix: () => Promise<void>][] = [
    [
      "Missing Information",
      "Please fill in all required fields.",
      () => fillPersonal(page, { age: "13" }),
    ],
    [
      "Age Requirement",
      "You must be at least 14 years old to apply.",
      () => form(page).getByLabel("Age").fill("15"),
    ],
    [
      "Role Required",
      "Please select at least one role you're applying for.",
      async () => {
        await role(page, "Design Director").check();
        await role(page, "Editorial Writer").check();
      },
    ],
    [
      "Portfolio Required",
      "Portfolio is required when applying for Graphic Designer or Design Director role.",
      () => page.getByLabel("Portfolio link").fill("https://ada.art"),
    ],
    [
      "Writing Samples Required",
      "Writing samples are required when applying for Editorial Writer or Educational Pack Developer role.",
      () => page.getByLabel("Writing Samples link").fill("https://ada.blog"),
    ],
    [
      "Missing Information",
      "Please answer all required questions.",
      async () => {
        await fillAnswers(page);
        await form(page).getByLabel("Email").fill("ada@school");
      },
    ],
    ["Invalid Email", "Please enter a valid email address.", async () => {}],
  ];
  for (const [title, message, fix] of steps) {
    await submit(page);
    await expect(toast(page, title, message)).toBeVisible();
    await page
      .locator(".toast")
      .getByRole("button", { name: "Dismiss notification" })
      .click();
    await expect(page.locator(".toast")).toHaveCount(0);
    await fix();
  }
  await expect(page).toHaveURL(/\/application$/);
});

test("a file the server refuses keeps the form as it was", async ({ page }) => {
  await open(page, "/application");
  await fillPersonal(page);
  await role(page, "Copy Editor").check();
  await fillAnswers(page);
  // Named like a PDF, but text inside: only the server can tell.
  await page.getByLabel("CV / Resume (optional)").setInputFiles({
    name: "cv.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("just some text, not a PDF"),
  });
  const answer = page.waitForResponse("**/api/v1/applications");
  await submit(page);
  // A file of another kind than asked for, judged by its bytes.
  expect((await answer).status()).toBe(415);
  await expect(
    toast(page, "Unsupported File", "Your CV must be a PDF, DOC or DOCX file."),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/application$/);
  await expect(form(page).getByLabel("Full Name")).toHaveValue("Ada Student");
  await expect(role(page, "Copy Editor")).toBeChecked();
  await expect(form(page)).toContainText("cv.pdf");
  await expect(
    form(page).getByRole("button", { name: "Submit Application" }),
  ).toBeEnabled();
});

test("a network failure is an unexpected error", async ({ page }) => {
  await open(page, "/application");
  await fillPersonal(page);
  await role(page, "Copy Editor").check();
  await fillAnswers(page);
  await page.route("**/api/v1/applications", (route) => route.abort());
  await submit(page);
  await expect(
    toast(
      page,
      "Unexpected Error",
      "An unexpected error occurred. Please try again later.",
    ),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/application$/);
  await expect(form(page).getByLabel("Country")).toHaveValue("Kenya");
});

test("submits with a document and lands on the success page", async ({
  page,
}) => {
  await open(page, "/application");
  await fillPersonal(page);
  await role(page, "Editorial Writer").check();
  await role(page, "Graphic Designer").check();
  await page.getByLabel("Portfolio link").fill("https://ada.art");
  await page.getByLabel("Writing Samples file").setInputFiles(pdf("essay.pdf"));
  await form(page)
    .getByLabel("Previous Experience (optional)")
    .fill("School newspaper editor.");
  await fillAnswers(page);

  // Hold the request back until the busy button has been seen.
  const release = await holdRequests(page, "**/api/v1/applications");
  const answer = page.waitForResponse("**/api/v1/applications");
  await submit(page);
  const busy = form(page).getByRole("button", { name: "Submitting..." });
  await expect(busy).toBeDisabled();
  await expect(busy).toHaveAttribute("aria-busy", "true");
  await expect(busy.locator(".spinner")).toBeVisible();
  release();
  const response = await answer;
  expect(response.status()).toBe(201);
  expect(await response.json()).toMatchObject({ attachments: 1 });

  await expect(page).toHaveURL(/\/application\/success$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "We've Got Your Application!",
  );
  await expect(toast(page, "Application Submitted!")).toContainText(
    "Thank you for your interest. We'll review your application and contact you soon. 1 file(s) were attached.",
  );
});

test("documents too large to attach reach the team as links an admin follows", async ({
  page,
}) => {
  const name = `Ada Large ${tag()}`;
  await open(page, "/application");
  const f = form(page);
  await f.getByLabel("Full Name").fill(name);
  await f.getByLabel("Age").fill("16");
  await f.getByLabel("Country").fill("Kenya");
  await f.getByLabel("Email").fill("ada.large@school.example");
  await f.getByLabel("Time Zone").fill("Africa/Nairobi");
  await f.getByLabel("Weekly Availability (hours)").fill("4");
  await f.getByLabel("English Level").selectOption("C1");
  await role(page, "Editorial Writer").check();
  // 12 MB in all: more than one email may carry.
  const big = Buffer.alloc(6 * 1024 * 1024, "a");
  big.write("%PDF-1.4\n%", 0);
  await page.getByLabel("CV / Resume (optional)").setInputFiles({
    name: "cv.pdf",
    mimeType: "application/pdf",
    buffer: big,
  });
  await page.getByLabel("Writing Samples file").setInputFiles({
    name: "essay.pdf",
    mimeType: "application/pdf",
    buffer: big,
  });
  await fillAnswers(page);
  await submit(page);
  await expect(page).toHaveURL(/\/application\/success$/);

  // The team's email links to each document through the sign-in page.
  let links: string[] = [];
  await expect
    .poll(
      () => {
        const team = messagesTo("applications@agora.invalid").find((m) =>
          m.includes(`[Application] ${name}`),
        );
        links = [
          ...(team ?? "").matchAll(
            /https?:\/\/[^/\s]+(\/key-login\?next=\S+)/g,
          ),
        ].map((m) => m[1] ?? "");
        return links.length;
      },
      { timeout: 20_000, message: "the team's email with two links" },
    )
    .toBe(2);

  // Signed out, the link asks for the key; signing in starts the download and
  // opens the dashboard.
  await open(page, links[0] ?? "");
  await page.getByLabel("Access Key").fill(addStaff(`Dee ${tag()}`, "admin"));
  const [first] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Sign In" }).click(),
  ]);
  expect(first.suggestedFilename()).toBe("cv.pdf");
  expect(statSync(await first.path()).size).toBe(big.length);
  await expect(page).toHaveURL(/\/dashboard\/admin$/);

  // Signed in, the next link downloads at once.
  const [second] = await Promise.all([
    page.waitForEvent("download"),
    page.goto(links[1] ?? "").catch(() => null),
  ]);
  expect(second.suggestedFilename()).toBe("essay.pdf");
});
