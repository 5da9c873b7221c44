import { describe, expect, it } from "vitest";
import { splitUrl, toSearch } from "./query-string";

describe("toSearch", () => {
  it("is empty without entries", () => {
    expect(toSearch([])).toBe("");
  });

  it("encodes values and repeats keys", () => {
    expect(
      toSearch([
        ["q", "climate & youth"],
        ["category", "Human Rights"],
        ["category", "Culture & Politics"],
      ]),
    ).toBe(
      "?q=climate%20%26%20youth&category=Human%20Rights&category=Culture%20%26%20Politics",
    );
  });
});

describe("splitUrl", () => {
  it("separates path and search", () => {
    expect(splitUrl("/articles?q=a&limit=12")).toEqual({
      pathname: "/articles",
      search: "q=a&limit=12",
    });
  });

  it("handles no search and drops the hash", () => {
    expect(splitUrl("/about#team")).toEqual({ pathname: "/about", search: "" });
    expect(splitUrl("")).toEqual({ pathname: "/", search: "" });
  });
});
