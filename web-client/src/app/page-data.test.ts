import { describe, expect, it } from "vitest";
import {
  ARTICLE_BODY_MARK,
  readPageData,
  servedArticleBody,
  withArticleBody,
  type PageData,
} from "./page-data";
import { samples } from "./page-data.sample";
import { sampleOf } from "./page-data.sample-of";

describe("readPageData", () => {
  it("falls back to defaults without a payload", () => {
    expect(readPageData(null, "/about", "https://example.org")).toEqual({
      site: { name: "The Agora", url: "https://example.org" },
      path: "/about",
      status: 200,
      kind: "plain",
    });
  });

  it("falls back on malformed JSON or a wrong shape", () => {
    expect(readPageData("{", "/").status).toBe(200);
    expect(readPageData('{"site": 3}', "/").site.name).toBe("The Agora");
  });

  /** A payload as the server sends it, of `kind`. */
  const payload = (path: string, status: number, kind: string) =>
    JSON.stringify({
      site: { name: "Agora X", url: "https://x.test" },
      path,
      status,
      kind,
    });

  it("reads a valid payload", () => {
    const data = readPageData(payload("/nope", 404, "not_found"), "/nope");
    expect(data.site.name).toBe("Agora X");
    expect(data.status).toBe(404);
    expect(data.kind).toBe("not_found");
  });

  it("takes a kind of page it does not know for one it loads itself", () => {
    const data = readPageData(payload("/new", 200, "from_the_future"), "/new");
    expect(data.kind).toBe("plain");
    expect(data.site.name).toBe("Agora X");
  });

  it("reads every kind of page the server sends (the samples are kept current by the app's tests)", () => {
    for (const sample of samples) {
      expect(readPageData(JSON.stringify(sample), "/elsewhere")).toEqual(
        sample,
      );
    }
    expect(new Set(samples.map((s) => s.kind)).size).toBe(samples.length);
    expect(sampleOf("articles").list_query.categories).toEqual([
      "Youth Activism",
    ]);
  });
});

describe("an article's body, served once in the markup", () => {
  // What the server sends: an article's page data without its body.
  const bodiless: PageData = sampleOf("article");

  it("is not in the data the server embeds", () => {
    expect(JSON.stringify(samples)).not.toContain("content_html");
  });

  it("goes back into an article's data, and nowhere else", () => {
    const filled = withArticleBody(bodiless, "<p>Read back.</p>");
    expect(filled.kind === "article" && filled.article.content_html).toBe(
      "<p>Read back.</p>",
    );
    // Data that has a body keeps it; other pages and no body change nothing.
    const kept = withArticleBody(filled, ARTICLE_BODY_MARK);
    expect(kept).toBe(filled);
    expect(withArticleBody(bodiless, undefined)).toBe(bodiless);
    const plain = sampleOf("plain");
    expect(withArticleBody(plain, "<p>x</p>")).toBe(plain);
  });

  /** A document with these elements, as far as `servedArticleBody` looks. */
  const doc = (
    elements: Record<string, { tagName: string; innerHTML: string }>,
  ) =>
    ({
      getElementById: (id: string) => elements[`#${id}`] ?? null,
      querySelector: (selector: string) => elements[selector] ?? null,
    }) as unknown as Pick<Document, "getElementById" | "querySelector">;

  it("is read from the markup, or from the shell's template", () => {
    const inMarkup = { tagName: "DIV", innerHTML: "<p>In the markup.</p>" };
    const inShell = { tagName: "TEMPLATE", innerHTML: "<p>In the shell.</p>" };
    expect(
      servedArticleBody(doc({ "#root [data-agora-body]": inMarkup })),
    ).toBe("<p>In the markup.</p>");
    expect(servedArticleBody(doc({ "#agora-body": inShell }))).toBe(
      "<p>In the shell.</p>",
    );
    // An element of that id that is not a template is not the body.
    expect(
      servedArticleBody(doc({ "#agora-body": { ...inShell, tagName: "DIV" } })),
    ).toBeUndefined();
    expect(servedArticleBody(doc({}))).toBeUndefined();
  });
});
