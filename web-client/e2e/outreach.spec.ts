// The notify dialog (magazine page) and the contact form.
import { expect, test, type Page } from "@playwright/test";
import { open } from "./support";

/** A toast by its title. The modal dialog makes the toasts behind it inert, so match text. */
function toast(page: Page, title: string) {
  return page.locator(".toast").filter({ hasText: title });
}

test.describe("notify dialog", () => {
  test("signs up for the magazine launch", async ({ page }) => {
    await open(page, "/magazine");
    const button = page.getByRole("link", {
      name: "Notify Me When It's Ready",
    });
    const dialog = page.getByRole("dialog", { name: "Get Notified" });
    const email = dialog.getByLabel("Email address");
    const submit = dialog.getByRole("button", { name: "Notify Me" });

    await button.click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAccessibleDescription(
      "Leave your email and we will tell you as soon as the magazine launches.",
    );
    await expect(page).toHaveURL(/\/magazine$/);
    // The dialog opens on its question, not on its close button.
    await expect(email).toBeFocused();

    // Escape closes it.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await button.click();
    await expect(dialog).toBeVisible();

    await submit.click();
    await expect(toast(page, "Email required")).toContainText(
      "Please enter your email address.",
    );
    await expect(dialog).toBeVisible();

    const address = `notify-${Date.now()}@example.org`;
    await email.fill(address);
    await submit.click();
    await expect(toast(page, "Success!")).toContainText(
      "Thanks! You'll be the first to know when it's live.",
    );
    await expect(dialog).toBeHidden();

    // Signing up again with the same address is still a success.
    await toast(page, "Success!")
      .getByRole("button", { name: "Dismiss notification" })
      .click();
    await expect(toast(page, "Success!")).toHaveCount(0);
    await button.click();
    await expect(email).toHaveValue("");
    await email.fill(address);
    await submit.click();
    await expect(toast(page, "Success!")).toHaveCount(1);
    await expect(dialog).toBeHidden();
  });
});

test("the packs' dialog speaks of the packs, in the plural", async ({
  page,
}) => {
  await open(page, "/educational-packs");
  await page.getByRole("link", { name: "Notify Me When It's Ready" }).click();
  await expect(
    page.getByRole("dialog", { name: "Get Notified" }),
  ).toHaveAccessibleDescription(
    "Leave your email and we will tell you as soon as the educational packs launch.",
  );
});

test.describe("contact form", () => {
  test("checks the fields, sends and resets", async ({ page }) => {
    await open(page, "/contact-us");
    const form = page.locator("form.contact-form");
    const send = form.getByRole("button", { name: "Send Message" });

    await form.getByLabel("First Name").fill("Ada");
    await form.getByLabel("Last Name").fill("Lovelace");
    await form.getByLabel("Email").fill("ada@example");
    await form.getByLabel("Subject").fill("Packs for my class");
    await send.click();
    await expect(toast(page, "Missing Information")).toContainText(
      "Please fill in all required fields.",
    );

    await form.getByLabel("Inquiry Type").selectOption("Education / Packs");
    await form.getByLabel("Message").fill("Do the packs suit grade 9?");
    await send.click();
    await expect(toast(page, "Invalid Email")).toContainText(
      "Please enter a valid email address.",
    );

    await form.getByLabel("Email").fill("ada@example.org");
    await send.click();
    await expect(toast(page, "Message Sent Successfully!")).toContainText(
      "Thank you for your message. We'll get back to you within 24-48 hours.",
    );
    for (const label of [
      "First Name",
      "Last Name",
      "Email",
      "Subject",
      "Message",
    ]) {
      await expect(form.getByLabel(label)).toHaveValue("");
    }
    await expect(form.getByLabel("Inquiry Type")).toHaveValue("");
  });
});
