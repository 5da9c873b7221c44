// Article cards and the article page, the fallback cover, and inert markup.
import { expect, test } from "@playwright/test";
import {
  FALLBACK_COVER,
  VETO,
  cards,
  failOnDialog,
  holdRequests,
  open,
  rootMarkup,
  screenStylesheets,
  waitForHydration,
} from "./support";

const SHORT_US_DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;
const MARKDOWN_MARKS = /\*\*|__|##|\]\(|`|^\s*[>*-] /m;

test.describe("article card and page", () => {
  test("the page paints before the whole stylesheet, which its script then applies", async ({
    page,
  }) => {
    const release = await holdRequests(page, /\.js$/);
    await page.goto(`/article/${VETO.slug}`, { waitUntil: "commit" });
    // Painted with the inlined CSS while the script is still on its way…
    await expect(page.locator(".site-header")).toBeVisible();
    expect(await screenStylesheets(page)).toBe(0);
    // …which applies the whole stylesheet.
    release();
    await waitForHydration(page);
    await expect.poll(() => screenStylesheets(page)).toBe(1);
  });

  test("cards show badge, title, plain excerpt, author, date and read time", async ({
    page,
  }) => {
    await open(page, "/articles");
    await expect(cards(page)).toHaveCount(6);
    for (const card of await cards(page).all()) {
      await expect(card.locator(".badge").first()).toHaveText(/\w/);
      await expect(card.getByRole("heading")).toHaveText(/\w/);
      const excerpt = card.locator(".card-excerpt");
      await expect(excerpt).toHaveText(/\w{3}/);
      expect(await excerpt.textContent()).not.toMatch(MARKDOWN_MARKS);
      await expect(card.locator("time")).toHaveText(SHORT_US_DATE);
      await expect(card.getByText(/^\d+ min read$/)).toBeVisible();
    }

    const card = cards(page).filter({
      has: page.getByRole("heading", { name: VETO.title }),
    });
    await expect(card.getByText(VETO.category, { exact: true })).toBeVisible();
    await expect(card.getByText(VETO.author, { exact: true })).toBeVisible();
    await expect(card.getByText(VETO.subtitle)).toBeVisible();
    // The source opens with an italic quote: *"Resolution fails after veto"*.
    await expect(card.locator(".card-excerpt")).toContainText(
      '"Resolution fails after veto"',
    );

    await card.getByRole("link", { name: VETO.title }).click();
    await expect(page).toHaveURL(new RegExp(`/article/${VETO.slug}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      VETO.title,
    );
  });

  test("article page: meta line, formatted body, safe external links", async ({
    page,
  }) => {
    await open(page, `/article/${VETO.slug}`);
    const article = page.locator("article.article");
    await expect(article.getByRole("heading", { level: 1 })).toHaveText(
      VETO.title,
    );
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(article.getByText(VETO.subtitle)).toBeVisible();
    await expect(
      article.getByText(VETO.category, { exact: true }),
    ).toBeVisible();
    await expect(article.getByText(`By ${VETO.author}`)).toBeVisible();
    await expect(article.getByText(/^\d+ min read$/)).toBeVisible();
    await expect(article.locator("header time")).toHaveText(
      /^[A-Z][a-z]+ \d{1,2}, \d{4} at \d{2}:\d{2} [AP]M \S+$/,
    );

    const body = article.locator(".prose");
    // Markdown "##" and "###" become real headings below the title's <h1>.
    const section = body.getByRole("heading", {
      name: "How a resolution passes",
    });
    const subsection = body.getByRole("heading", {
      name: "Want to go deeper?",
    });
    await expect(section).toBeVisible();
    await expect(subsection).toBeVisible();
    const level = (heading: typeof section) =>
      heading.evaluate((el) => Number(el.tagName.slice(1)));
    const sectionLevel = await level(section);
    expect(sectionLevel).toBeGreaterThanOrEqual(2);
    expect(await level(subsection)).toBe(sectionLevel + 1);
    await expect(body.locator("h1")).toHaveCount(0);
    await expect(body.locator("ul > li")).toHaveCount(3);
    await expect(body.locator("ol > li")).toHaveCount(4);
    await expect(body.locator("blockquote")).toContainText(
      "primary responsibility for the maintenance of international peace",
    );
    await expect(body.locator("strong").first()).toHaveText("15 members");
    await expect(body.locator("em").first()).toBeVisible();
    await expect(body.locator("hr")).toHaveCount(1);
    await expect(body).not.toContainText("**");
    await expect(body).not.toContainText("## ");

    const external = body.locator('a[href^="http"]');
    expect(await external.count()).toBeGreaterThan(0);
    for (const link of await external.all()) {
      await expect(link).toHaveAttribute("target", "_blank");
      const rel = (await link.getAttribute("rel")) ?? "";
      expect(rel.split(/\s+/)).toEqual(
        expect.arrayContaining(["noopener", "noreferrer"]),
      );
    }
    await expect(
      body.getByRole("link", { name: "UN Security Council" }),
    ).toHaveAttribute("href", "https://www.un.org/securitycouncil/");
  });

  test("head tags come from the server", async ({ page, request }) => {
    const response = await open(page, `/article/${VETO.slug}`);
    const html = (await response?.text()) ?? "";
    const meta = (attr: string, key: string) => {
      const match = new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`).exec(
        html,
      );
      return match?.[1];
    };
    const decode = (s: string | undefined) =>
      s
        ?.replaceAll("&#39;", "'")
        .replaceAll("&quot;", '"')
        .replaceAll("&amp;", "&");

    expect(meta("property", "og:type")).toBe("article");
    expect(decode(meta("property", "og:title"))).toContain(VETO.title);
    expect(decode(meta("name", "description"))).toBe(VETO.subtitle);
    const image = meta("property", "og:image");
    expect(image).toMatch(
      new RegExp(`^https?://.+/social/article/${VETO.slug}\\.jpg\\?v=`),
    );
    // A picture social networks show: a JPEG of the declared size.
    const card = await request.get(decode(image) ?? "");
    expect(card.status()).toBe(200);
    expect(card.headers()["content-type"]).toBe("image/jpeg");
    expect(meta("property", "og:image:width")).toBe("1200");
    expect(meta("property", "og:image:height")).toBe("630");
    const canonical = /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
    expect(canonical).toMatch(
      new RegExp(`^https?://[^/]+/article/${VETO.slug}$`),
    );
    expect(meta("property", "og:url")).toBe(canonical);
    // Title and tags are in the server's HTML before any script runs.
    expect(html).toMatch(
      /<title>The Veto, Explained: [^<]*\| The Agora<\/title>/,
    );

    // The browser sees the same tags.
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute(
      "content",
      "article",
    );
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      "href",
      canonical ?? "",
    );
  });
});

test.describe("after the article", () => {
  test("share links without third-party scripts, the author, and three more to read", async ({
    page,
  }) => {
    await open(page, `/article/${VETO.slug}`);
    const share = page.getByRole("region", { name: "Share this article" });
    await expect(share.getByRole("link")).toHaveText([
      /WhatsApp/,
      /X/,
      /Facebook/,
      /LinkedIn/,
      /Email/,
    ]);
    const whatsapp = await share
      .getByRole("link", { name: /WhatsApp/ })
      .getAttribute("href");
    expect(decodeURIComponent(whatsapp ?? "")).toContain(
      `/article/${VETO.slug}`,
    );
    // Every script on the page is the site's own.
    const origin = new URL(page.url()).origin;
    const sources = await page
      .locator("script[src]")
      .evaluateAll((list) => list.map((s) => (s as HTMLScriptElement).src));
    for (const src of sources) expect(new URL(src).origin).toBe(origin);

    const author = page.getByRole("region", { name: VETO.author });
    await expect(author).toContainText("Written by");
    await expect(author).toContainText("Writer");
    await expect(author.getByRole("link").first()).toBeVisible();

    const readNext = page.getByRole("region", { name: "Read next" });
    const cards = readNext.getByRole("article");
    await expect(cards).toHaveCount(3);
    // The same category's article comes first.
    await expect(cards.first().locator(".badge").first()).toHaveText(
      VETO.category,
    );
    await expect(readNext.getByText(VETO.title)).toHaveCount(0);
    const next = await cards.first().getByRole("heading").textContent();
    await cards.first().getByRole("link").first().click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      next ?? "",
    );
    await expect(
      page.getByRole("region", { name: "Read next" }).getByRole("article"),
    ).toHaveCount(3);
  });
});

test("following a card keeps the listing on screen until the article is there", async ({
  page,
}) => {
  await open(page, "/articles");
  const release = await holdRequests(page, /\/api\/v1\/articles\/[^/?]+$/);
  await cards(page).getByRole("link", { name: VETO.title }).click();
  // While the article is on its way: the listing, under a progress bar.
  await expect(
    page.getByRole("progressbar", { name: "Loading the page" }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/articles$/);
  await expect(cards(page).first()).toBeVisible();
  await expect(page.getByText("Loading article...")).toHaveCount(0);
  release();
  await expect(page).toHaveURL(new RegExp(`/article/${VETO.slug}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(VETO.title);
  await expect(page.getByRole("progressbar")).toHaveCount(0);
});

test.describe("fallback cover", () => {
  test("a card whose cover fails shows the local fallback", async ({
    page,
  }) => {
    await page.route("**/media/**", (route) => route.abort());
    await open(page, "/articles");
    const img = cards(page).first().locator("img");
    await expect(img).toHaveAttribute("src", FALLBACK_COVER);
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth))
      .toBeGreaterThan(0);
  });

  test("an article cover that fails after in-app navigation falls back", async ({
    page,
  }) => {
    await open(page, "/");
    await page.route("**/media/**", (route) => route.abort());
    await cards(page).first().getByRole("link").click();
    await expect(page).toHaveURL(/\/article\//);
    const cover = page.locator(".article-cover img");
    await expect(cover).toHaveAttribute("src", FALLBACK_COVER);
    await expect
      .poll(() => cover.evaluate((el: HTMLImageElement) => el.naturalWidth))
      .toBeGreaterThan(0);
  });

  test("covers load normally when the media is there", async ({ page }) => {
    await open(page, "/articles");
    const img = cards(page).first().locator("img");
    await expect(img).toHaveAttribute("src", /^\/media\//);
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth))
      .toBeGreaterThan(0);
  });
});

test("the body comes once, in the markup, and hydrates without the API", async ({
  page,
}) => {
  const asked: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith("/api/v1/articles")) {
      asked.push(r.url());
    }
  });
  const response = await open(page, `/article/${VETO.slug}`);
  const html = (await response?.text()) ?? "";
  // A sentence of the body: in the page once, in the markup, not in its data.
  const quoted = "primary responsibility for the maintenance";
  expect(html.split(quoted)).toHaveLength(2);
  expect(rootMarkup(html)).toContain(quoted);
  const data = /<script id="agora-data"[^>]*>([\s\S]*?)<\/script>/.exec(html);
  expect(data?.[1]).toBeDefined();
  expect(data?.[1]).not.toContain("content_html");
  expect(html).not.toContain("agora-body-->");
  // Hydrated as served: the body stays, and nothing was asked of the API.
  const body = page.locator("article.article .prose");
  await page.waitForLoadState("networkidle");
  await expect(body.locator("blockquote")).toContainText(quoted);
  expect(asked).toEqual([]);
  // Another article, reached in the app, brings its own body from the API,
  // and the first one's is there again on the way back.
  const next = page.locator("section.read-next a[href^='/article/']").first();
  const nextHref = await next.getAttribute("href");
  expect(nextHref).toMatch(/^\/article\//);
  await next.click();
  await expect(page).toHaveURL(new RegExp(`${nextHref ?? ""}$`));
  await expect(page.locator("article.article .prose p").first()).toBeVisible();
  expect(asked.some((url) => url.includes(nextHref?.slice(9) ?? "-"))).toBe(
    true,
  );
  await page.goBack();
  await expect(body.locator("blockquote")).toContainText(quoted);
});

test.describe("markup stays inert", () => {
  test("the server HTML of an article has no script in its body", async ({
    page,
  }) => {
    const dialogs = failOnDialog(page);
    const response = await open(page, `/article/${VETO.slug}`);
    const html = (await response?.text()) ?? "";
    const markup = rootMarkup(html);
    expect(markup).toContain(VETO.title);
    expect(markup).not.toMatch(/<script/i);
    expect(markup).not.toMatch(/\son[a-z]+=/i);
    // Every script in the page is the app bundle, the inert page data or
    // structured data (JSON-LD, never run).
    for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
      expect(tag).toMatch(
        /^<script (type="module"[^>]* src="\/assets\/[^"]+\.js"|id="agora-data" type="application\/json"|type="application\/ld\+json")>$/,
      );
    }
    expect(
      await page.evaluate(() => (window as { __xss?: unknown }).__xss),
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
  });

  test("a script typed into the search box is shown as text", async ({
    page,
  }) => {
    const dialogs = failOnDialog(page);
    const payload = "<script>alert(1)</script>";
    await open(page, "/articles");
    const box = page.getByPlaceholder("Search articles...");
    await box.fill(payload);
    await box.press("Enter");
    await expect(page).toHaveURL(
      (url) => url.searchParams.get("q") === payload,
    );
    await expect(
      page.getByRole("heading", { name: "No articles found" }),
    ).toBeVisible();
    await expect(box).toHaveValue(payload);
    await expect(page.locator("main script")).toHaveCount(0);

    // The same query straight from the server.
    const response = await page.goto(
      `/articles?q=${encodeURIComponent(payload)}`,
    );
    const html = (await response?.text()) ?? "";
    expect(html).not.toContain(payload);
    expect(rootMarkup(html)).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    await waitForHydration(page);
    await expect(page.getByPlaceholder("Search articles...")).toHaveValue(
      payload,
    );
    expect(dialogs).toEqual([]);
  });

  test("an attribute-breaking query runs nothing", async ({ page }) => {
    const dialogs = failOnDialog(page);
    const payload = `"><img src=x onerror="window.__xss=1;alert(2)">`;
    const response = await page.goto(
      `/articles?q=${encodeURIComponent(payload)}`,
    );
    const html = (await response?.text()) ?? "";
    expect(html).not.toContain("<img src=x");
    await waitForHydration(page);
    await expect(page.getByPlaceholder("Search articles...")).toHaveValue(
      payload,
    );
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(
      await page.evaluate(() => (window as { __xss?: unknown }).__xss),
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});
