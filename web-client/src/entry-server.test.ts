import { QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ARTICLE_BODY_MARK, type PageData } from "./app/page-data";
import { samples } from "./entry-samples";
import { ready, render, renderPage } from "./entry-server";
import { article, articleOnPage, card } from "./test/fixtures";

const site = { name: "The Agora", url: "https://agora.test" };

beforeAll(() => ready);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("render", () => {
  it("renders the home page with the server's articles", () => {
    const data: PageData = {
      site,
      path: "/",
      status: 200,
      kind: "home",
      home: {
        items: [
          card({
            id: "a",
            slug: "a",
            title: "Climate Courts Rise",
            featured: true,
          }),
          card({
            id: "b",
            slug: "b",
            title: "Borders & Belonging",
            author_name: undefined,
          }),
        ],
        total: 2,
        total_exact: true,
        published_total: 2,
      },
    };
    const html = render("/", data);
    expect(html).toContain("Climate Courts Rise");
    expect(html).toContain("Borders &amp; Belonging");
    expect(html).toContain("Unknown Author");
    expect(html).toContain("Featured");
    expect(html).toContain("Nov 22, 2026");
    expect(html).toContain('href="/article/a"');
    expect(html).not.toContain("Loading articles...");
  });

  it("shows the empty state when nothing is published", () => {
    const html = render("/", {
      site,
      path: "/",
      status: 200,
      kind: "home",
      home: { items: [], total: 0, total_exact: true, published_total: 0 },
    });
    expect(html).toContain("No published articles available yet");
    expect(html).toContain("Check Back Soon");
  });

  it("renders the listing with filters and a load-more link", () => {
    const items = Array.from({ length: 6 }, (_, i) =>
      card({ id: `${i}`, slug: `s${i}`, title: `Story ${i}` }),
    );
    const html = render("/articles?category=Youth%20Activism", {
      site,
      path: "/articles?category=Youth%20Activism",
      status: 200,
      kind: "articles",
      list: { items, total: 9, total_exact: true, published_total: 20 },
      list_query: {
        q: "",
        categories: ["Youth Activism"],
        limit: 6,
        newest: false,
      },
    });
    expect(html).toContain("Story 5");
    expect(html).toContain('placeholder="Search articles..."');
    expect(html).toContain(
      'href="/articles?category=Youth%20Activism&amp;limit=12"',
    );
    expect(html).toContain("Load More Articles");
  });

  it("renders an article in UTC with its server-rendered body", () => {
    const html = render("/article/voting-at-sixteen", {
      site,
      path: "/article/voting-at-sixteen",
      status: 200,
      kind: "article",
      article: article({ content_html: "<h2>Why now</h2><p>Because.</p>" }),
      related: { read_next: [] },
    });
    expect(html).toContain("<h1");
    expect(html).toContain("November 22, 2026 at 03:06 AM UTC");
    expect(html).toContain("<h2>Why now</h2><p>Because.</p>");
  });

  it("reads an article's queries from the page data, with no observer", () => {
    // An observer per query was a fifth of a render's time (src/lib/use-query.ts).
    const observed = vi.spyOn(QueryObserver.prototype, "getOptimisticResult");
    const html = render("/article/voting-at-sixteen", {
      site,
      path: "/article/voting-at-sixteen",
      status: 200,
      kind: "article",
      article: articleOnPage({ title: "Votes at Sixteen" }),
      related: { read_next: [card({ title: "Read This Next" })] },
      responses: { responses: [], open: true },
    });
    expect(html).toContain("Votes at Sixteen");
    expect(html).toContain("Read This Next");
    expect(observed).not.toHaveBeenCalled();
  });

  it("leaves a mark where the app puts an article's body the data lacks", () => {
    const bare = articleOnPage();
    const html = render("/article/voting-at-sixteen", {
      site,
      path: "/article/voting-at-sixteen",
      status: 200,
      kind: "article",
      article: bare,
      related: { read_next: [] },
    });
    expect(html).toContain(
      '<div class="container narrow prose" data-agora-body="">' +
        ARTICLE_BODY_MARK +
        "</div>",
    );
    expect(html.split(ARTICLE_BODY_MARK)).toHaveLength(2);
  });

  it("shows the server's excerpt and one reading time on cards and the article", () => {
    const excerpt = "Plain text from the server, marks already removed.";
    const listing = render("/articles", {
      site,
      path: "/articles",
      status: 200,
      kind: "articles",
      list: {
        items: [card({ excerpt, read_time: "7 min" })],
        total: 1,
        total_exact: true,
        published_total: 1,
      },
      list_query: { q: "", categories: [], limit: 6, newest: false },
    });
    expect(listing).toContain(excerpt);
    expect(listing).toContain("7 min read");
    const page = render("/article/voting-at-sixteen", {
      site,
      path: "/article/voting-at-sixteen",
      status: 200,
      kind: "article",
      article: article({ read_time: "7 min" }),
      related: { read_next: [] },
    });
    expect(page).toContain("7 min read");
  });

  it("renders not-found pages", () => {
    expect(
      render("/article/gone", {
        site,
        path: "/article/gone",
        status: 404,
        kind: "not_found",
      }),
    ).toContain("Article not found");
    expect(
      render("/nowhere", {
        site,
        path: "/nowhere",
        status: 404,
        kind: "not_found",
      }),
    ).toContain("Oops! Page not found");
  });

  it("uses the configured site name", () => {
    expect(
      render("/signup", {
        site: { name: "Agora Youth", url: "" },
        path: "/signup",
        status: 200,
        kind: "plain",
      }),
    ).toContain("Join Agora Youth");
  });
});

describe("the markup pages share", () => {
  const FOOTER = /<footer class="site-footer">([\s\S]*?)<\/footer>/;
  const HEADER = /<header class="site-header">([\s\S]*?)<\/header>/;

  it("is what each sample page renders afresh, to the byte", () => {
    const all = samples();
    expect(all.length).toBeGreaterThan(20);
    // As each reader would get it, signed in or not.
    for (const reader of [false, true]) {
      for (const sample of all) {
        const { url } = sample;
        const data = { ...sample.data, reader };
        const kept = render(url, data);
        expect(kept, url).toBe(renderPage(url, data, null));
        expect(FOOTER.exec(kept)?.[1], url).toContain('href="/contributors"');
        expect(HEADER.exec(kept)?.[1], url).toContain(
          reader ? 'href="/account"' : 'href="/login"',
        );
      }
    }
  });

  it("is kept for each site name: a page never shows another's", () => {
    const page = (name: string) =>
      render("/about", {
        site: { name, url: "" },
        path: "/about",
        status: 200,
        kind: "plain",
      });
    page("The Agora");
    const other = FOOTER.exec(page("Agora Youth"))?.[1] ?? "";
    expect(other).toContain("Agora Youth");
    expect(other).not.toContain("The Agora");
    expect(FOOTER.exec(page("The Agora"))?.[1]).not.toContain("Agora Youth");
    expect(HEADER.exec(page("Agora Youth"))?.[1]).toContain(
      '<span class="brand-name">Agora Youth</span>',
    );
    expect(HEADER.exec(page("The Agora"))?.[1]).toContain(
      '<span class="brand-name">The Agora</span>',
    );
  });
});
