import { describe, expect, it } from "vitest";
import { initialDataFor } from "./initial-data";
import type { PageData } from "./page-data";

const site = { name: "The Agora", url: "https://agora.test" };
const list = { items: [], total: 0, published_total: 0 };

describe("initialDataFor", () => {
  it("gives home data on /", () => {
    const data: PageData = { site, path: "/", status: 200, home: list };
    expect(initialDataFor(data, "/", "")).toEqual({ home: list });
    expect(initialDataFor(data, "/about", "")).toEqual({});
  });

  it("gives the listing only when the query matches", () => {
    const data: PageData = {
      site,
      path: "/articles?category=Human%20Rights&limit=12",
      status: 200,
      list,
      list_query: { q: "", categories: ["Human Rights"], limit: 12 },
    };
    expect(
      initialDataFor(data, "/articles", "?category=Human+Rights&limit=12"),
    ).toEqual({ list });
    expect(
      initialDataFor(data, "/articles", "category=Human%20Rights"),
    ).toEqual({});
  });

  it("marks a missing article as not found", () => {
    const data: PageData = { site, path: "/article/gone", status: 404 };
    expect(initialDataFor(data, "/article/gone", "")).toEqual({
      article: { kind: "not_found" },
    });
    expect(initialDataFor(data, "/article/other", "")).toEqual({});
  });
});
