import { describe, expect, it } from "vitest";
import { readPageData } from "./page-data";
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
    expect(sampleOf("article").article.content_html).toContain("<strong>");
  });
});
