// The reader's whole path in the browser, on the commonest phone width:
// register, confirm from the email, sign in, edit interests and emails, sign
// out; a forgotten password; the emailed sign-in link; deleting the account.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { linkInEmail } from "./mail";
import { open, recordConsole } from "./support";

test.use({ viewport: { width: 390, height: 844 } });

const PASSWORD = "correct horse";

function header(page: Page) {
  return page.getByRole("banner");
}

async function register(page: Page, email: string) {
  await open(page, "/signup");
  const form = page.locator("form.signup-form");
  await form.getByLabel("First Name").fill("Noor");
  await form.getByLabel("Last Name").fill("Haddad");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await form.getByLabel("Confirm Password").fill(PASSWORD);
  await form.getByLabel("Human Rights").check();
  await form.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/signup\/check-email$/);
  await page
    .getByRole("main")
    .getByRole("link", { name: "Go to sign in" })
    .click();
  await expect(page).toHaveURL(/\/login$/);
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  const main = page.getByRole("main");
  await main.getByLabel("Email").fill(email);
  await main.getByLabel("Password").fill(password);
  await main.getByRole("button", { name: "Sign In" }).click();
}

test("register, confirm, sign in, choose interests and emails, sign out", async ({
  page,
}) => {
  const email = `noor-${Date.now()}@example.org`;
  await register(page, email);

  // Not confirmed yet: said plainly, with a way to get a new link.
  await signIn(page, email);
  const main = page.getByRole("main");
  await expect(main.getByRole("alert")).toContainText(
    "Please confirm your email address first",
  );
  await main
    .getByRole("button", { name: "Send a new confirmation link" })
    .click();
  await expect(main.getByRole("status")).toContainText("we've emailed it");
  const confirm = await linkInEmail(email, "/email/confirm", 2);
  await open(page, confirm);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Your email is confirmed",
  );
  await page.getByRole("link", { name: "Go to login" }).click();

  await signIn(page, email, "not my password");
  await expect(main.getByRole("alert")).toHaveText(
    "Invalid email or password.",
  );
  const entries = recordConsole(page);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "My account",
  );
  await expect(main).toContainText(`Signed in as ${email}`);
  await expect(
    header(page).getByRole("link", { name: "Account" }),
  ).toBeVisible();

  const axe = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa"])
    .analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  const profile = page.getByRole("region", { name: "Profile" });
  await expect(profile.getByLabel("Human Rights")).toBeChecked();
  await profile.getByLabel("Climate Justice").check();
  await profile.getByLabel("Country").fill("Jordan");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(profile.getByRole("status")).toHaveText(
    "Your profile is saved.",
  );
  const emails = page.getByRole("region", { name: "Emails" });
  await emails.getByLabel(/Weekly digest/).check();
  await emails.getByLabel(/Magazine launches/).check();
  await emails.getByRole("button", { name: "Save email choices" }).click();
  await expect(emails.getByRole("status")).toHaveText(
    "Your email choices are saved.",
  );

  // What was saved is what the server has.
  await page.reload();
  await expect(profile.getByLabel("Climate Justice")).toBeChecked();
  await expect(profile.getByLabel("Country")).toHaveValue("Jordan");
  await expect(emails.getByLabel(/Weekly digest/)).toBeChecked();
  await expect(emails.getByLabel(/Magazine launches/)).toBeChecked();
  await expect(emails.getByLabel(/Educational packs/)).not.toBeChecked();

  // The data download holds the account.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download my data (JSON)" }).click();
  const saved = await (await download).path();
  const { readFileSync } = await import("node:fs");
  const data = JSON.parse(readFileSync(saved, "utf8")) as {
    account: { email: string; interests: string[] };
  };
  expect(data.account.email).toBe(email);
  expect(data.account.interests).toEqual(["Human Rights", "Climate Justice"]);

  // Signed in, nothing went wrong in the page (a signed-out /account logs its 401).
  expect(entries.filter((e) => e.type !== "warning")).toEqual([]);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(header(page).getByRole("link", { name: "Login" })).toBeVisible();
  await open(page, "/account");
  await expect(page.getByRole("main")).toContainText(
    "Please sign in to see your account.",
  );
});

test("a forgotten password, the emailed sign-in link, and deleting the account", async ({
  page,
}) => {
  const email = `sami-${Date.now()}@example.org`;
  await register(page, email);
  await open(page, await linkInEmail(email, "/email/confirm"));

  await open(page, "/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  const main = page.getByRole("main");
  await main.getByLabel("Email").fill(email);
  await main.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(main.getByRole("status")).toContainText(
    "If an account exists for this address",
  );
  await open(page, await linkInEmail(email, "/reset-password"));
  await main.getByLabel("New password", { exact: true }).fill("new battery");
  await main.getByLabel("Confirm new password").fill("new batteries");
  await main.getByRole("button", { name: "Save new password" }).click();
  await expect(main.getByRole("alert")).toHaveText("Passwords do not match.");
  await main.getByLabel("Confirm new password").fill("new battery");
  await main.getByRole("button", { name: "Save new password" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.getByRole("button", { name: "Sign out" }).click();
  // Signed out on the server before going on (the page leaves for the home page once
  // it is; a live session sends /login on to /account).
  await expect(page).toHaveURL(/\/$/);

  // The emailed link: opening it signs nobody in; the button does.
  await open(page, "/login");
  await main.getByLabel("Email").fill(email);
  await main.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(main.getByRole("status")).toContainText("we've emailed it");
  const link = await linkInEmail(email, "/email/sign-in");
  await open(page, link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Sign in with your link",
  );
  await main.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/account$/);
  // Used once: the same link no longer works.
  await open(page, link);
  await main.getByRole("button", { name: "Sign In" }).click();
  await expect(main.getByRole("alert")).toContainText(
    "expired or has already been used",
  );

  await open(page, "/account");
  const danger = page.getByRole("region", { name: "Delete account" });
  await danger.getByRole("button", { name: "Delete my account…" }).click();
  await danger.getByLabel("Enter your password to confirm").fill(PASSWORD);
  await danger
    .getByRole("button", { name: "Delete my account permanently" })
    .click();
  await expect(danger.getByRole("alert")).toHaveText(
    "Your current password is not right.",
  );
  await danger.getByLabel("Enter your password to confirm").fill("new battery");
  await danger
    .getByRole("button", { name: "Delete my account permanently" })
    .click();
  await expect(page).toHaveURL(/\/$/);
  await open(page, "/login");
  await signIn(page, email, "new battery");
  await expect(main.getByRole("alert")).toHaveText(
    "Invalid email or password.",
  );
});
