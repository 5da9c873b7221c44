import { describe, expect, it } from "vitest";
import { readPageData } from "./page-data";
import { sample } from "./page-data.sample";

describe("readPageData", () => {
  it("falls back to defaults without a payload", () => {
    expect(readPageData(null, "/about", "https://example.org")).toEqual({
      site: { name: "The Agora", url: "https://example.org" },
      path: "/about",
      status: 200,
    });
  });

  it("falls back on malformed JSON or a wrong shape", () => {
    expect(readPageData("{", "/").status).toBe(200);
    expect(readPageData('{"site": 3}', "/").site.name).toBe("The Agora");
  });

  it("reads a valid payload", () => {
    const data = readPageData(
      JSON.stringify({
        site: { name: "Agora X", url: "https://x.test" },
        path: "/nope",
        status: 404,
      }),
      "/nope",
    );
    expect(data.site.name).toBe("Agora X");
    expect(data.status).toBe(404);
  });

  it("reads every field the server sends (the sample is kept current by the app's tests)", () => {
    expect(readPageData(JSON.stringify(sample), "/elsewhere")).toEqual(sample);
    expect(sample.list_query?.categories).toEqual(["Youth Activism"]);
    expect(sample.article?.content_html).toContain("<strong>");
  });
});
