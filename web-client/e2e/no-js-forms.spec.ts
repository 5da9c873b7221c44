// Every public form works as a plain HTML form, on a phone with scripts off:
// it posts to the server, which answers with a redirect back to the page
// (never with the values in the address), where the messages sit beside the
// fields. Runs in the "no-js" project (JavaScript disabled, 390 px).
import { expect, test, type Page } from "@playwright/test";
import { linkInEmail, messagesTo } from "./mail";
import { addStaff, tag } from "./staff-support";

/** Fails when the address holds anything that was typed into a form. */
function expectPrivateUrl(page: Page, typed: string[]) {
  const url = decodeURIComponent(page.url());
  for (const value of typed) {
    expect(url, `the address must not carry "${value}"`).not.toContain(value);
  }
  expect(new URL(page.url()).search).toBe("");
}

async function goto(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), `HTTP status of ${path}`).toBe(200);
}

test.describe("forms without JavaScript", () => {
  test("contact: faults are marked beside the fields, then the message is sent once", async ({
    page,
  }) => {
    await goto(page, "/contact-us");
    const form = page.locator("form.contact-form");
    await form.getByLabel("First Name").fill("Ada");
    await form.getByLabel("Email").fill("ada@example");
    await form.getByLabel("Subject").fill("Packs for my class");
    await form.getByLabel("Message").fill("Could we pilot them?");
    await form.getByRole("button", { name: "Send Message" }).click();

    await expect(page).toHaveURL(/\/contact-us#answer$/);
    expectPrivateUrl(page, ["Ada", "ada@example", "pilot"]);
    const summary = form.getByRole("alert");
    await expect(summary).toContainText("Missing Information");
    await expect(summary).toContainText("Please fill in all required fields.");
    // The summary names the fields, linked to them.
    await expect(summary.getByRole("link")).toHaveText([
      "Last Name",
      "Inquiry Type",
    ]);
    await expect(form.getByLabel("Last Name")).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(form.getByLabel("First Name")).not.toHaveAttribute(
      "aria-invalid",
      "true",
    );
    // What was typed is still there.
    await expect(form.getByLabel("First Name")).toHaveValue("Ada");
    await expect(form.getByLabel("Message")).toHaveValue(
      "Could we pilot them?",
    );

    await form.getByLabel("Last Name").fill("Lovelace");
    await form.getByLabel("Inquiry Type").selectOption("education");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByRole("alert")).toContainText("Invalid Email");
    await expect(form.getByLabel("Email")).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(page.locator("#contact-email-error")).toHaveText(
      "Please enter a valid email address.",
    );

    await form.getByLabel("Email").fill("ada@example.org");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByRole("status")).toContainText(
      "Message Sent Successfully!",
    );
    expectPrivateUrl(page, ["ada@example.org"]);
    // A reload asks for the page again: it neither sends the message again nor
    // shows the answer twice.
    await page.reload();
    await expect(page.getByText("Message Sent Successfully!")).toHaveCount(0);
    await expect(form.getByLabel("First Name")).toHaveValue("");
  });

  test("signup: passwords are never sent back, and the account is created", async ({
    page,
  }) => {
    const email = `nojs-${tag()}@example.org`;
    await goto(page, "/signup");
    const form = page.locator("form.signup-form");
    await form.getByLabel("First Name").fill("Noor");
    await form.getByLabel("Last Name").fill("Haddad");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password", { exact: true }).fill("sesame-one");
    await form.getByLabel("Confirm Password").fill("sesame-two");
    await form.getByLabel("Human Rights").check();
    await form.getByRole("button", { name: "Create Account" }).click();

    expectPrivateUrl(page, ["sesame", email]);
    await expect(form.getByRole("alert")).toContainText(
      "Passwords do not match.",
    );
    await expect(form.getByLabel("Confirm Password")).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(form.getByLabel("Password", { exact: true })).toHaveValue("");
    await expect(form.getByLabel("Email")).toHaveValue(email);
    await expect(form.getByLabel("Human Rights")).toBeChecked();
    const html = await page.content();
    expect(html).not.toContain("sesame");

    await form.getByLabel("Password", { exact: true }).fill("sesame-one");
    await form.getByLabel("Confirm Password").fill("sesame-one");
    await form.getByLabel("Tell me when the magazine launches").check();
    await form.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/signup\/check-email(#answer)?$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Check Your Email",
    );
    expectPrivateUrl(page, ["sesame", email]);
  });

  test("application: the summary names every missing field, then it is sent", async ({
    page,
  }) => {
    await goto(page, "/application");
    const form = page.locator("form.application-form");
    // Without scripts every sample section is there to fill in.
    await expect(form.getByLabel("Portfolio link")).toBeVisible();
    await form.getByLabel("Full Name").fill("Sam Okoro");
    await form.getByRole("button", { name: "Submit Application" }).click();

    expectPrivateUrl(page, ["Sam"]);
    const summary = form.getByRole("alert").first();
    await expect(summary).toContainText("Please fill in all required fields.");
    await expect(summary.getByRole("link")).toHaveText([
      "Age",
      "Country",
      "Email",
      "Time Zone",
      "Weekly Availability (hours)",
      "English Level",
    ]);
    await expect(form.getByLabel("Full Name")).toHaveValue("Sam Okoro");

    await form.getByLabel("Age").fill("16");
    await form.getByLabel("Country").fill("Nigeria");
    await form.getByLabel("Email").fill(`sam-${tag()}@example.org`);
    await form.getByLabel("Time Zone").fill("Africa/Lagos");
    await form.getByLabel("Weekly Availability (hours)").fill("5");
    await form.getByLabel("English Level").selectOption("C1");
    await form.getByLabel("Research Assistant").check();
    await form.getByLabel("Why do you want to join us?").fill("To report.");
    await form
      .getByLabel("What would you like to contribute?")
      .fill("Research on youth turnout.");
    await form.getByRole("button", { name: "Submit Application" }).click();
    await expect(page).toHaveURL(/\/application\/success(#answer)?$/);
  });

  test("application: a file attached before an error is asked for again, never dropped", async ({
    page,
  }) => {
    const name = `Kemi ${tag()}`;
    // The team's copy of this application (the applicant's own email replies to the team).
    const teamMail = () =>
      messagesTo("applications@agora.invalid").filter((m) =>
        m.includes(`Subject: [Application] ${name}`),
      );
    const pdf = {
      name: "cv.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from(
        "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n",
      ),
    };
    await goto(page, "/application");
    const form = page.locator("form.application-form");
    await form.getByLabel("Full Name").fill(name);
    await form.getByLabel("Age").fill("16");
    await form.getByLabel("Country").fill("Nigeria");
    await form.getByLabel("Email").fill(`kemi-${tag()}@example.org`);
    await form.getByLabel("Time Zone").fill("Africa/Lagos");
    await form.getByLabel("Weekly Availability (hours)").fill("5");
    await form.getByLabel("English Level").selectOption("C1");
    await form.getByLabel("Research Assistant").check();
    await form.getByLabel("CV / Resume (optional)").setInputFiles(pdf);
    // "Why do you want to join us?" left empty: the form comes back.
    await form
      .getByLabel("What would you like to contribute?")
      .fill("Research on youth turnout.");
    await form.getByRole("button", { name: "Submit Application" }).click();
    await expect(form.getByRole("alert").first()).toContainText(
      "Please answer all required questions.",
    );
    // The CV is named at its field and asked for again.
    await expect(form).toContainText(
      "cv.pdf was attached, but files are not kept when the form comes back: choose it again.",
    );

    // Fixed, but sent without choosing the file again: refused, nothing sent.
    await form.getByLabel("Why do you want to join us?").fill("To report.");
    await form.getByRole("button", { name: "Submit Application" }).click();
    await expect(page).toHaveURL(/\/application(#answer)?$/);
    await expect(form.getByRole("alert").first()).toContainText(
      "Files are not kept when the form comes back: choose cv.pdf again",
    );
    await expect(form.getByLabel("Why do you want to join us?")).toHaveValue(
      "To report.",
    );
    expect(teamMail()).toHaveLength(0);

    // Attached again: the team's email carries it.
    await form.getByLabel("CV / Resume (optional)").setInputFiles(pdf);
    await form.getByRole("button", { name: "Submit Application" }).click();
    await expect(page).toHaveURL(/\/application\/success(#answer)?$/);
    await expect.poll(() => teamMail().length, { timeout: 20_000 }).toBe(1);
    expect(teamMail()[0]).toContain("cv.pdf");
  });

  test("unsubscribe: opening the link changes nothing; one press does, and Resubscribe undoes it", async ({
    page,
  }) => {
    const email = `leaver-${tag()}@example.org`;
    await goto(page, "/magazine");
    await page
      .getByRole("link", { name: "Notify Me When It's Ready" })
      .first()
      .click();
    const dialog = page.locator("#notify-magazine");
    await dialog.getByLabel("Email address").fill(email);
    await dialog.getByRole("button", { name: "Notify Me" }).click();
    const link = await linkInEmail(email, "/email/unsubscribe");

    // Opened twice (as a mail scanner would, then the reader): it only asks.
    for (let i = 0; i < 2; i++) await goto(page, link);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "Unsubscribe?",
    );
    await expect(main).toContainText("the magazine");
    await main.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "You're unsubscribed",
    );
    await main.getByRole("button", { name: "Resubscribe" }).click();
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "Unsubscribe?",
    );
  });

  test("notify: the button opens the form, which answers in place", async ({
    page,
  }) => {
    await goto(page, "/magazine");
    const dialog = page.locator("#notify-magazine");
    await expect(dialog).toBeHidden();
    await page
      .getByRole("link", { name: "Notify Me When It's Ready" })
      .first()
      .click();
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Email address").fill("not-an-address");
    await dialog.getByRole("button", { name: "Notify Me" }).click();
    expectPrivateUrl(page, ["not-an-address"]);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Email address")).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(dialog).toContainText("Please enter a valid email address.");
    await dialog.getByLabel("Email address").fill(`fan-${tag()}@example.org`);
    await dialog.getByRole("button", { name: "Notify Me" }).click();
    await expect(page.getByRole("status").first()).toContainText(
      "You'll be the first to know",
    );
    await expect(dialog).toBeHidden();
  });

  test("key login: a wrong key is said beside the field; the right one opens the dashboard, which says it needs JavaScript", async ({
    page,
  }) => {
    const key = addStaff(`No Script ${tag()}`, "admin");
    await goto(page, "/key-login");
    await page.getByLabel("Access Key").fill("not-a-key");
    await page.getByRole("button", { name: "Sign In" }).click();
    expectPrivateUrl(page, ["not-a-key"]);
    await expect(page.getByLabel("Access Key")).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(page.getByText("Invalid access key.")).toBeVisible();

    await page.getByLabel("Access Key").fill(key);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/dashboard\/admin(#answer)?$/);
    await expect(
      page.getByRole("heading", { name: "This dashboard needs JavaScript" }),
    ).toBeVisible();
    expectPrivateUrl(page, [key]);
  });

  test("reader sign-in and a forgotten password answer in place", async ({
    page,
  }) => {
    await goto(page, "/login");
    await page.getByLabel("Email").fill("nobody@example.org");
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    expectPrivateUrl(page, ["wrong-password", "nobody@example.org"]);
    await expect(page.getByRole("alert")).toContainText(
      "Invalid email or password.",
    );
    await expect(page.getByLabel("Email")).toHaveValue("nobody@example.org");
    await expect(page.getByLabel("Password")).toHaveValue("");

    // "Email me a sign-in link" is a second button of the same form.
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.getByRole("status").first()).toContainText(
      "If an account exists for this address",
    );

    await goto(page, "/forgot-password");
    await page.getByLabel("Email").fill("nobody@example.org");
    await page.getByRole("button", { name: "Email me a reset link" }).click();
    expectPrivateUrl(page, ["nobody@example.org"]);
    await expect(page.getByRole("status").first()).toContainText(
      "If an account exists for this address",
    );
  });

  test("a reader's whole account works without scripts: sign in, profile, emails, password, delete", async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const email = `account-${tag()}@example.org`;
    const password = "first-secret";
    await goto(page, "/signup");
    const signup = page.locator("form.signup-form");
    await signup.getByLabel("First Name").fill("Ines");
    await signup.getByLabel("Last Name").fill("Moreau");
    await signup.getByLabel("Email").fill(email);
    await signup.getByLabel("Password", { exact: true }).fill(password);
    await signup.getByLabel("Confirm Password").fill(password);
    await signup.getByRole("button", { name: "Create Account" }).click();
    await goto(page, await linkInEmail(email, "/email/confirm"));

    await goto(page, "/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/\/account(#answer)?$/);
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    // Every page's header now offers the account, not the sign-in (also the
    // shared, cached pages), and leads there.
    for (const path of ["/", "/articles", "/about"]) {
      await goto(page, path);
      await expect(page.locator(".site-header .header-login")).toHaveText(
        "Account",
      );
    }
    await page.locator(".site-header .header-login").click();
    await expect(page).toHaveURL(/\/account$/);

    // Profile: the saved values come back from the server.
    const profile = page.getByRole("region", { name: "Profile" });
    await profile.getByLabel("Country").fill("France");
    await profile.getByLabel("Climate Justice").check();
    await profile.getByRole("button", { name: "Save profile" }).click();
    await expect(profile.getByRole("status")).toHaveText(
      "Your profile is saved.",
    );
    await expect(profile.getByLabel("Country")).toHaveValue("France");
    await expect(profile.getByLabel("Climate Justice")).toBeChecked();
    expectPrivateUrl(page, ["France"]);

    // Emails: an unticked box is a "no".
    const emails = page.getByRole("region", { name: "Emails" });
    await emails.getByLabel(/Weekly digest/).uncheck();
    await emails.getByRole("button", { name: "Save email choices" }).click();
    await expect(emails.getByRole("status")).toHaveText(
      "Your email choices are saved.",
    );
    await expect(emails.getByLabel(/Weekly digest/)).not.toBeChecked();

    // Password: a wrong current password is refused in place.
    const pw = page.getByRole("region", { name: "Password" });
    await pw.getByLabel("Current password").fill("not-it");
    await pw.getByLabel("New password", { exact: true }).fill("second-secret");
    await pw.getByLabel("Confirm new password").fill("second-secret");
    await pw.getByRole("button", { name: "Change password" }).click();
    await expect(pw.getByRole("alert")).not.toBeEmpty();
    expectPrivateUrl(page, ["not-it", "second-secret"]);

    // Delete: the password is asked again, then the account is gone.
    const del = page.getByRole("region", { name: "Delete account" });
    await del.getByLabel("Enter your password to confirm").fill(password);
    await del
      .getByRole("button", { name: "Delete my account permanently" })
      .click();
    await expect(
      page.getByRole("heading", { name: "Account deleted" }),
    ).toBeVisible();
    await goto(page, "/account");
    await expect(
      page.getByText("Please sign in to see your account."),
    ).toBeVisible();
    await goto(page, "/");
    await expect(page.locator(".site-header .header-login")).toHaveText(
      "Login",
    );
  });

  test("a reset link and a sign-in link work as plain forms, and a used link says so", async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const email = `links-${tag()}@example.org`;
    await goto(page, "/signup");
    const signup = page.locator("form.signup-form");
    await signup.getByLabel("First Name").fill("Tom");
    await signup.getByLabel("Last Name").fill("Okoye");
    await signup.getByLabel("Email").fill(email);
    await signup.getByLabel("Password", { exact: true }).fill("old secret");
    await signup.getByLabel("Confirm Password").fill("old secret");
    await signup.getByRole("button", { name: "Create Account" }).click();
    await goto(page, await linkInEmail(email, "/email/confirm"));

    await goto(page, "/forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Email me a reset link" }).click();
    const reset = await linkInEmail(email, "/reset-password");
    await goto(page, reset);
    await page.getByLabel("New password", { exact: true }).fill("new secret");
    await page.getByLabel("Confirm new password").fill("new secrets");
    await page.getByRole("button", { name: "Save new password" }).click();
    // Back on the link's page (its token kept in the address, as emailed), told why.
    await expect(page.getByRole("alert")).toHaveText("Passwords do not match.");
    expect(page.url()).not.toContain("new secret");
    await page.getByLabel("New password", { exact: true }).fill("new secret");
    await page.getByLabel("Confirm new password").fill("new secret");
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect(page).toHaveURL(/\/account(#answer)?$/);
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login(#answer)?$/);

    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    const link = await linkInEmail(email, "/email/sign-in");
    await goto(page, link);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/account(#answer)?$/);
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    await goto(page, link);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toContainText(
      "expired or has already been used",
    );
  });

  test("the phone menu opens from its link and covers nothing while closed", async ({
    page,
  }) => {
    await goto(page, "/");
    const nav = page.getByRole("navigation", { name: "Main" });
    const list = page.locator("#site-nav");
    await expect(list).toBeHidden();
    // The page's first heading is not under anything.
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toBeVisible();
    await nav.getByRole("link", { name: "Menu" }).click();
    await expect(list).toBeVisible();
    await list.getByRole("link", { name: "About", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "About The Agora",
    );
    await expect(list).toBeHidden();
  });
});
