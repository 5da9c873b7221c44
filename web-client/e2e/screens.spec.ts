// Every public screen shows the wording of the spec (§2).
import { expect, test } from "@playwright/test";
import {
  FEATURED,
  NAV_LABELS,
  PAGE_SIZE,
  SITE_NAME,
  TILE_ORDER,
  cards,
  categoryPath,
  open,
} from "./support";

test.describe("public screens", () => {
  test("home: hero, From Our Writers, Explore by Category", async ({
    page,
  }) => {
    await open(page, "/");
    await expect(page).toHaveTitle(
      `${SITE_NAME} | Youth voices on global politics`,
    );
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "Empowering Young Voices in Global Politics",
    );

    const readLatest = main.getByRole("link", {
      name: "Read Latest Articles",
      exact: true,
    });
    const contribute = main.getByRole("link", {
      name: "Become a Contributor",
      exact: true,
    });
    await expect(readLatest).toHaveAttribute("href", "/articles");
    await expect(contribute).toHaveAttribute("href", "/contributors");

    // Up to three articles, the featured one first with its badge.
    const writers = page.getByRole("region", { name: "From Our Writers" });
    const writerCards = writers.getByRole("article");
    await expect(writerCards).toHaveCount(3);
    await expect(
      writerCards.first().getByRole("heading", { name: FEATURED.title }),
    ).toBeVisible();
    await expect(
      writerCards.first().getByText("Featured", { exact: true }),
    ).toBeVisible();
    await expect(writers.getByText("Featured", { exact: true })).toHaveCount(1);
    await expect(
      writers.getByRole("link", { name: "Read All Articles" }),
    ).toHaveAttribute("href", "/articles");

    // Six tiles, each opening its category's page.
    const tiles = page
      .getByRole("region", { name: "Explore by Category" })
      .getByRole("link");
    await expect(tiles).toHaveCount(TILE_ORDER.length);
    for (const [index, name] of TILE_ORDER.entries()) {
      const tile = tiles.nth(index);
      await expect(tile).toContainText(name);
      await expect(tile).toHaveAttribute("href", categoryPath(name));
    }

    // The hero buttons go where they say.
    await readLatest.click();
    await expect(page).toHaveURL(/\/articles$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Articles",
    );
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await contribute.click();
    await expect(page).toHaveURL(/\/contributors$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Join Our Team of Young Voices",
    );
  });

  test("header links every public page and Login", async ({ page }) => {
    await open(page, "/about");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText([...NAV_LABELS]);
    await expect(nav.getByRole("link", { name: "About" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(
      page.getByRole("banner").getByRole("link", { name: "Login" }),
    ).toHaveAttribute("href", "/login");
    await nav.getByRole("link", { name: "Magazine" }).click();
    await expect(page).toHaveURL(/\/magazine$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Magazine",
    );
    await expect(page).toHaveTitle(`Magazine | ${SITE_NAME}`);
    // Titles after an in-app navigation are the ones the server writes (one route table).
    for (const [label, title] of [
      ["About", `About Us | ${SITE_NAME}`],
      ["Home", `${SITE_NAME} | Youth voices on global politics`],
    ] as const) {
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: label })
        .click();
      await expect(page).toHaveTitle(title);
    }
  });

  test("articles listing", async ({ page }) => {
    await open(page, "/articles");
    await expect(page).toHaveTitle(`Articles | ${SITE_NAME}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Articles",
    );
    await expect(page.getByPlaceholder("Search articles...")).toBeVisible();
    await expect(
      page
        .getByRole("navigation", { name: "Filter by category" })
        .getByRole("link"),
    ).toHaveCount(7);
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    await expect(
      page.getByRole("link", { name: "Load More Articles" }),
    ).toBeVisible();
  });

  test("article page", async ({ page }) => {
    await open(page, `/article/${FEATURED.slug}`);
    await expect(page).toHaveTitle(`${FEATURED.title} | ${SITE_NAME}`);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      FEATURED.title,
    );
    const article = main.locator("article.article");
    await expect(
      article.getByText(FEATURED.category, { exact: true }),
    ).toBeVisible();
    await expect(article.getByText("Featured", { exact: true })).toBeVisible();
  });

  test("magazine", async ({ page }) => {
    await open(page, "/magazine");
    await expect(page).toHaveTitle(`Magazine | ${SITE_NAME}`);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "Magazine",
    );
    await expect(main.getByText("Coming Soon", { exact: true })).toBeVisible();
    await expect(
      main.getByRole("heading", { name: "Launching this December" }),
    ).toBeVisible();
    for (const blurb of [
      "In-Depth Analysis",
      "Visual Storytelling",
      "Global Perspectives",
    ]) {
      await expect(main.getByRole("heading", { name: blurb })).toBeVisible();
    }
    await expect(
      main.getByRole("link", { name: "Notify Me When It's Ready" }),
    ).toBeVisible();
  });

  test("educational packs", async ({ page }) => {
    await open(page, "/educational-packs");
    await expect(page).toHaveTitle(`Educational Packs | ${SITE_NAME}`);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "Educational Packs",
    );
    await expect(
      main.getByRole("heading", { name: "Launching this January" }),
    ).toBeVisible();
    for (const item of [
      "A central theme on key political topics",
      "4 visually designed explanation pages",
      "English and Spanish versions",
      "Teacher's guide",
    ]) {
      await expect(main.getByText(item)).toBeVisible();
    }
    await expect(main.getByText(/flexible pricing/i).first()).toBeVisible();
    await expect(
      main.getByRole("link", { name: "Notify Me When It's Ready" }),
    ).toBeVisible();
  });

  test("about", async ({ page }) => {
    await open(page, "/about");
    await expect(page).toHaveTitle(`About Us | ${SITE_NAME}`);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      `About ${SITE_NAME}`,
    );
    await expect(
      main.getByRole("heading", { name: "Our Mission" }),
    ).toBeVisible();
    const values = page.getByRole("region", { name: "Our Values" });
    await expect(values.getByRole("heading", { level: 3 })).toHaveText([
      "Global Perspective",
      "Youth Leadership",
      "Educational Excellence",
      "Inclusive Community",
    ]);
    const team = page.getByRole("region", { name: "Meet the Team" });
    await expect(team.getByRole("listitem")).toHaveCount(4);
  });

  test("contributors", async ({ page }) => {
    await open(page, "/contributors");
    await expect(page).toHaveTitle(`Join as a Contributor | ${SITE_NAME}`);
    const main = page.getByRole("main");
    await expect(
      main.getByRole("link", { name: "Apply Now", exact: true }),
    ).toHaveAttribute("href", "/application");
    const roles = page.getByRole("region", { name: "Contributor Roles" });
    await expect(roles.getByRole("article")).toHaveCount(8);
    await expect(roles.getByRole("heading", { level: 3 })).toHaveText([
      "Editorial Writer",
      "Copy Editor",
      "Research Assistant",
      "Educational Pack Developer",
      "Communications & Outreach Director",
      "Communications Assistant",
      "Design Director",
      "Graphic Designer",
    ]);
    await expect(
      page
        .getByRole("region", { name: "How to Apply" })
        .getByRole("heading", { level: 3 }),
    ).toHaveCount(4);
    const start = main.getByRole("link", { name: "Start Your Application" });
    await expect(start).toHaveAttribute("href", "/application");
  });

  test("application success", async ({ page }) => {
    await open(page, "/application/success");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "We've Got Your Application!",
    );
    const back = main.getByRole("link", { name: "Back to Home" });
    await expect(back).toHaveAttribute("href", "/");
    await back.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Empowering Young Voices in Global Politics",
    );
  });

  test("contact with its FAQ", async ({ page }) => {
    await open(page, "/contact-us");
    await expect(page).toHaveTitle(`Contact Us | ${SITE_NAME}`);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "Get in Touch",
    );
    await expect(main.getByText(/15\+ time zones/)).toBeVisible();
    await expect(main.getByText(/24-48 hours/).first()).toBeVisible();
    await expect(
      main.getByRole("heading", { name: "Send Us a Message" }),
    ).toBeVisible();
    const faq = page.getByRole("region", {
      name: "Frequently Asked Questions",
    });
    await expect(faq.getByRole("term")).toHaveText([
      `How can I contribute to ${SITE_NAME}?`,
      "Are the educational packs suitable for my grade level?",
      "How often do you publish new content?",
      `Is ${SITE_NAME} politically neutral?`,
    ]);
    await expect(faq.getByText(/5 times per week/)).toBeVisible();
  });

  test("reader sign-in, key login for the team, and sign-up", async ({
    page,
  }) => {
    await open(page, "/login");
    await expect(page).toHaveTitle(`Sign in | ${SITE_NAME}`);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Sign in");
    await expect(main.getByLabel("Email")).toBeVisible();
    await expect(main.getByLabel("Password")).toBeVisible();
    await expect(
      main.getByRole("heading", { name: "Team members" }),
    ).toBeVisible();
    await main.getByRole("link", { name: "Sign in with Access Key" }).click();
    await expect(page).toHaveURL(/\/key-login$/);
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "Access Key Login",
    );
    await expect(main.getByLabel("Access Key")).toBeVisible();
    const back = main.getByRole("link", { name: "Back to regular login" });
    await expect(back).toHaveAttribute("href", "/login");
    await back.click();
    await expect(page).toHaveURL(/\/login$/);

    await open(page, "/signup");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      `Join ${SITE_NAME}`,
    );
    await expect(
      page.getByRole("main").getByRole("link", { name: "Log in" }),
    ).toHaveAttribute("href", "/login");
  });

  test("unknown path: 404 page with status 404", async ({ page }) => {
    await open(page, "/no-such-page", 404);
    await expect(page).toHaveTitle(`Page not found | ${SITE_NAME}`);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "Oops! Page not found",
    );
    await main.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("unknown article: status 404", async ({ page }) => {
    await open(page, "/article/no-such-slug", 404);
    await expect(page).toHaveTitle(`Page not found | ${SITE_NAME}`);
    await expect(
      page.getByRole("main").getByRole("heading", { level: 1 }),
    ).toHaveText("Article not found");
    await expect(
      page.getByRole("main").getByRole("link", { name: "Return to Home" }),
    ).toHaveAttribute("href", "/");
  });
});
