// Readers' responses, moderated, on the commonest phone width: a reader sends
// one under an article (with JavaScript, then without), it waits on their
// account page, the content director approves it, it shows under the article
// as text, three readers report it and it goes back to the queue, the desk
// rejects it with a reason, and the reader reads the reason and deletes it.
import AxeBuilder from "@axe-core/playwright";
import {
  expect,
  test,
  type Browser,
  type BrowserContext,
  type Page,
} from "@playwright/test";
import { currentApp } from "./apps";
import { linkInEmail } from "./mail";
import { addStaff, signIn, tag, toast } from "./staff-support";
import { VETO, failOnDialog, open } from "./support";

test.use({ viewport: { width: 390, height: 844 } });

const PASSWORD = "correct horse";
const ARTICLE = `/article/${VETO.slug}`;
/** What a reader might type: markup that must stay text. */
const PAYLOAD =
  'Vetoes protect the powerful <script>window.__hit=1</script><img src=x onerror="window.__hit=1"> read https://x.example';

/** Pages of browsers with JavaScript off: nothing hydrates there. */
const plain = new WeakSet<Page>();

async function visit(page: Page, path: string) {
  if (!plain.has(page)) return open(page, path);
  const response = await page.goto(path);
  expect(response?.status()).toBe(200);
}

async function pageIn(context: BrowserContext, javaScript: boolean) {
  const page = await context.newPage();
  if (!javaScript) plain.add(page);
  return page;
}

interface Reader {
  context: BrowserContext;
  page: Page;
}

/** A reader registered, confirmed and signed in, in a browser of their own. */
async function reader(
  browser: Browser,
  first: string,
  javaScript: boolean,
): Promise<Reader> {
  const context = await browser.newContext({
    baseURL: currentApp().url,
    viewport: { width: 390, height: 844 },
    javaScriptEnabled: javaScript,
  });
  const page = await pageIn(context, javaScript);
  const email = `${first.toLowerCase()}-${tag()}@example.org`;
  await visit(page, "/signup");
  const form = page.locator("form.signup-form");
  await form.getByLabel("First Name").fill(first);
  await form.getByLabel("Last Name").fill("Haddad");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await form.getByLabel("Confirm Password").fill(PASSWORD);
  await form.getByLabel("Human Rights").check();
  await form.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/signup\/check-email$/);
  await visit(page, await linkInEmail(email, "/email/confirm"));
  await visit(page, "/login");
  const main = page.getByRole("main");
  await main.getByLabel("Email").fill(email);
  await main.getByLabel("Password").fill(PASSWORD);
  await main.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/account$/);
  return { context, page };
}

function responses(page: Page) {
  return page.locator("#responses");
}

/** The desk's panel, on the content director's dashboard. */
async function desk(page: Page) {
  await signIn(
    page,
    addStaff(`Dana ${tag()}`, "content-director"),
    "/dashboard/content-director",
  );
  return page.getByRole("region", { name: /Readers’ responses/ });
}

async function reportAsThree(browser: Browser, javaScript: boolean) {
  for (const first of ["Ana", "Ben", "Cai"]) {
    const { context, page } = await reader(browser, first, javaScript);
    await visit(page, ARTICLE);
    const item = responses(page).getByRole("article").first();
    await item.getByRole("button", { name: "Report" }).click();
    await expect(responses(page)).toContainText("Thank you for telling us.");
    await context.close();
  }
}

for (const javaScript of [true, false]) {
  test(`a response is moderated end to end ${javaScript ? "with" : "without"} JavaScript`, async ({
    browser,
    page,
  }) => {
    test.setTimeout(120_000);
    const dialogs = failOnDialog(page);
    const text = `${PAYLOAD} (${javaScript ? "script" : "plain"} ${tag()})`;

    // Signed out: an invitation to sign in, no form.
    const guest = await browser.newContext({
      baseURL: currentApp().url,
      javaScriptEnabled: javaScript,
    });
    const guestPage = await pageIn(guest, javaScript);
    await visit(guestPage, ARTICLE);
    await expect(responses(guestPage)).toContainText("Sign in");
    await expect(responses(guestPage).locator("textarea")).toHaveCount(0);

    // Noor sends it: it waits for the desk, on her account page.
    const noor = await reader(browser, "Noor", javaScript);
    const noorDialogs = failOnDialog(noor.page);
    await visit(noor.page, ARTICLE);
    await responses(noor.page).getByLabel("Your response").fill(text);
    await responses(noor.page)
      .getByRole("button", { name: "Send response" })
      .click();
    await expect(responses(noor.page)).toContainText(
      "Your response is waiting for review",
    );
    // Nobody sees it yet, Noor included: it is not under the article.
    await expect(
      responses(noor.page).getByRole("article").filter({ hasText: text }),
    ).toHaveCount(0);
    await responses(noor.page).screenshot({
      path: `test-results/responses-sent-${javaScript}.png`,
    });
    await visit(noor.page, "/account");
    const mine = noor.page.getByRole("region", { name: "Your responses" });
    await expect(mine).toContainText("Waiting for review");
    await expect(mine).toContainText(text);
    await mine.screenshot({
      path: `test-results/responses-account-pending-${javaScript}.png`,
    });

    // The director approves it, seeing its article.
    const panel = await desk(page);
    const item = panel.getByRole("listitem").filter({ hasText: text });
    await expect(item).toContainText(VETO.title);
    await expect(item).toContainText("Noor H.");
    await item.getByRole("button", { name: "Approve" }).click();
    await expect(toast(page, "Response approved")).toBeVisible();

    // Under the article, as text: first name and initial, nothing run.
    await expect(async () => {
      await visit(guestPage, ARTICLE);
      await expect(responses(guestPage)).toContainText(text, { timeout: 500 });
    }).toPass({ timeout: 10_000 });
    const shown = responses(guestPage).getByRole("article", {
      name: "Response by Noor H.",
    });
    await expect(shown.last()).toContainText("<script>window.__hit=1</script>");
    await expect(guestPage.locator("#responses img")).toHaveCount(0);
    await expect(
      guestPage.locator("#responses a[href*='x.example']"),
    ).toHaveCount(0);
    if (javaScript) {
      expect(
        await guestPage.evaluate(() => (window as { __hit?: number }).__hit),
      ).toBeUndefined();
    }
    await responses(guestPage).screenshot({
      path: `test-results/responses-article-${javaScript}.png`,
    });
    if (javaScript) {
      // (axe runs in the page: not where scripts are off; the markup is the same.)
      const axe = await new AxeBuilder({ page: guestPage })
        .include("#responses")
        .analyze();
      expect(axe.violations).toEqual([]);
    }

    // Three readers report it: off the article, back in the queue.
    await reportAsThree(browser, javaScript);
    await visit(guestPage, ARTICLE);
    await expect(responses(guestPage)).not.toContainText(text);
    await page.reload();
    const back = panel.getByRole("listitem").filter({ hasText: text });
    await expect(back).toContainText("reported by 3 readers");
    await panel.screenshot({
      path: `test-results/responses-desk-${javaScript}.png`,
    });

    // Rejected with a reason: Noor reads it on her account page, and deletes it.
    await back
      .getByLabel(/Reason, if you reject it/)
      .fill("Please keep to the article's argument.");
    await back.getByRole("button", { name: "Reject" }).click();
    await expect(toast(page, "Response rejected")).toBeVisible();
    await visit(noor.page, "/account");
    const rejected = mine.getByRole("listitem").filter({ hasText: text });
    await expect(rejected).toContainText("Not published");
    await expect(rejected).toContainText(
      "The editors' reason: Please keep to the article's argument.",
    );
    await mine.screenshot({
      path: `test-results/responses-account-rejected-${javaScript}.png`,
    });
    await rejected.getByRole("button", { name: /Delete/ }).click();
    await expect(mine).toContainText("Your response is deleted.");
    await expect(
      mine.getByRole("listitem").filter({ hasText: text }),
    ).toHaveCount(0);

    if (javaScript) {
      // The desk closes the article's responses, then opens them again.
      await panel.getByLabel("Published article").selectOption({
        label: VETO.title,
      });
      await panel.getByRole("button", { name: "Close responses" }).click();
      await expect(toast(page, "Responses closed")).toBeVisible();
      await expect(async () => {
        await visit(noor.page, ARTICLE);
        await expect(responses(noor.page)).toContainText(
          "Responses to this article are closed.",
          { timeout: 500 },
        );
      }).toPass({ timeout: 10_000 });
      await expect(responses(noor.page).locator("textarea")).toHaveCount(0);
      await panel.getByRole("button", { name: "Open responses" }).click();
      await expect(toast(page, "Responses opened")).toBeVisible();
    }

    expect(dialogs).toEqual([]);
    expect(noorDialogs).toEqual([]);
    await noor.context.close();
    await guest.close();
  });
}
