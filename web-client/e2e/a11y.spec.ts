// Accessibility: axe finds no WCAG 2 A/AA violations on the public pages.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { VETO, loadLazyImages, open } from "./support";

const PAGES: readonly [url: string, status: number][] = [
  ["/", 200],
  ["/articles", 200],
  ["/category/human-rights", 200],
  [`/article/${VETO.slug}`, 200],
  ["/about", 200],
  ["/contributors", 200],
  ["/contact-us", 200],
  ["/magazine", 200],
  ["/login", 200],
  ["/forgot-password", 200],
  ["/no-such-page", 404],
];

for (const [url, status] of PAGES) {
  test(`no WCAG 2 A/AA violations on ${url}`, async ({ page }) => {
    await open(page, url, status);
    await loadLazyImages(page);
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa"])
      .analyze();
    const summary = results.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
      details: v.nodes.map((n) => n.failureSummary ?? ""),
    }));
    expect(summary, JSON.stringify(summary, null, 2)).toEqual([]);
  });
}

// The forms showing what is wrong: messages tied to their fields, the summary.
for (const [url, form, button] of [
  ["/contact-us", "form.contact-form", "Send Message"],
  ["/application", "form.application-form", "Submit Application"],
  ["/signup", "form.signup-form", "Create Account"],
] as const) {
  test(`no WCAG 2 A/AA violations on ${url} showing its errors`, async ({
    page,
  }) => {
    await open(page, url);
    await page.locator(form).getByRole("button", { name: button }).click();
    await expect(
      page.locator(`${form} [aria-invalid="true"]`).first(),
    ).toBeVisible();
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa"])
      .analyze();
    const summary = results.violations.map((v) => ({
      rule: v.id,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
    expect(summary, JSON.stringify(summary, null, 2)).toEqual([]);
  });
}
