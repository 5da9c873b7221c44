// Reader registration (/signup) against the real server.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { SITE_NAME, open, recordConsole, rootMarkup } from "./support";

function toast(page: Page, title: string, message?: string) {
  const byTitle = page.locator(".toast").filter({ hasText: title });
  return message ? byTitle.filter({ hasText: message }) : byTitle;
}

function form(page: Page): Locator {
  return page.locator("form.signup-form");
}

async function fill(page: Page, password: string, confirm = password) {
  const f = form(page);
  await f.getByLabel("First Name").fill("Ada");
  await f.getByLabel("Last Name").fill("Lovelace");
  await f.getByLabel("Email").fill(`reader-${Date.now()}@example.org`);
  await f.getByLabel("Password", { exact: true }).fill(password);
  await f.getByLabel("Confirm Password").fill(confirm);
}

async function submit(page: Page) {
  await form(page).getByRole("button", { name: "Create Account" }).click();
}

test("the form renders on the server, hydrates cleanly and passes axe", async ({
  page,
  request,
}) => {
  const markup = rootMarkup(await (await request.get("/signup")).text());
  expect(markup).toContain('id="signup-confirmPassword"');
  expect(markup).not.toContain("Registration opens soon.");

  const entries = recordConsole(page);
  await open(page, "/signup");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    `Join ${SITE_NAME}`,
  );
  await expect(
    page.getByRole("main").getByRole("link", { name: "Log in" }),
  ).toHaveAttribute("href", "/login");
  const interests = form(page).getByRole("group", {
    name: "Interests (optional)",
  });
  await expect(interests.getByRole("checkbox")).toHaveCount(6);
  for (const label of ["Password", "Confirm Password"]) {
    await expect(form(page).getByLabel(label, { exact: true })).toHaveAttribute(
      "autocomplete",
      "new-password",
    );
  }
  const age = form(page).getByLabel("Age (optional)");
  await expect(age).toHaveAttribute("min", "13");
  await expect(age).toHaveAttribute("max", "25");
  await page.waitForLoadState("networkidle");
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa"])
    .analyze();
  const summary = results.violations.map((v) => ({
    rule: v.id,
    targets: v.nodes.map((n) => n.target.join(" ")),
  }));
  expect(summary, JSON.stringify(summary, null, 2)).toEqual([]);
  expect(entries, entries.map((e) => e.text).join("\n")).toEqual([]);
});

test("checks the fields before sending", async ({ page }) => {
  await open(page, "/signup");
  let requests = 0;
  page.on("request", (r) => {
    if (r.url().includes("/api/v1/accounts")) requests += 1;
  });

  await submit(page);
  await expect(
    toast(page, "Missing Information", "Please fill in all required fields."),
  ).toBeVisible();

  await fill(page, "secret1", "secret2");
  await submit(page);
  await expect(
    toast(page, "Registration Failed", "Passwords do not match."),
  ).toBeVisible();

  await fill(page, "abc12");
  await submit(page);
  await expect(
    toast(
      page,
      "Registration Failed",
      "Password must be at least 6 characters long.",
    ),
  ).toBeVisible();

  await form(page).getByLabel("Email").fill("ada@example");
  await submit(page);
  await expect(
    toast(page, "Invalid Email", "Please enter a valid email address."),
  ).toBeVisible();
  expect(requests).toBe(0);
});

test("a refusal or a failure keeps the form as it was", async ({ page }) => {
  await open(page, "/signup");
  await fill(page, "secret-pass");
  const tooMany = {
    code: "too_many_requests",
    title: "Too Many Requests",
    message: "Please try again in 5 minutes.",
  };
  await page.route("**/api/v1/accounts", (route) =>
    route.fulfill({ status: 429, json: tooMany }),
  );
  await submit(page);
  await expect(toast(page, tooMany.title, tooMany.message)).toBeVisible();

  await page.unroute("**/api/v1/accounts");
  await page.route("**/api/v1/accounts", (route) =>
    route.fulfill({ status: 500, body: "" }),
  );
  await submit(page);
  await expect(
    toast(page, "Registration Failed", "An unexpected error occurred."),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(form(page).getByLabel("First Name")).toHaveValue("Ada");
});

test("registers with the emails ticked, then lands on a Check your email page", async ({
  page,
}) => {
  await open(page, "/signup");
  await fill(page, "correct horse");
  await form(page).getByLabel("Age (optional)").fill("16");
  await form(page).getByLabel("Country (optional)").fill("Kenya");
  await form(page).getByRole("checkbox", { name: "Human Rights" }).check();
  await form(page).getByRole("checkbox", { name: "Digital Politics" }).check();
  // The three emails are asked on the form itself, all unticked until the reader ticks.
  const magazine = form(page).getByRole("checkbox", {
    name: "Tell me when the magazine launches",
  });
  const packs = form(page).getByRole("checkbox", {
    name: "Tell me when the educational packs launch",
  });
  const digest = form(page).getByRole("checkbox", {
    name: "Send me a weekly digest of new articles on my interests",
  });
  for (const box of [magazine, packs, digest])
    await expect(box).not.toBeChecked();
  await magazine.check();
  await digest.check();

  const answer = page.waitForResponse("**/api/v1/accounts");
  await submit(page);
  const response = await answer;
  expect(response.status()).toBe(200);
  expect(response.request().postDataJSON()).toMatchObject({
    first_name: "Ada",
    age: 16,
    country: "Kenya",
    interests: ["Human Rights", "Digital Politics"],
    notify_magazine: true,
    notify_packs: false,
    weekly_digest: true,
    website: "",
  });

  await expect(page).toHaveURL(/\/signup\/check-email$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Check Your Email",
  );
  await expect(page.getByRole("main")).toContainText(
    "Please check your email and follow the link to confirm your account.",
  );
  await expect(page).toHaveTitle(/^Check your email/);
});
