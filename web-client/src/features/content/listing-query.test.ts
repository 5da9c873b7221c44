import { describe, expect, it } from "vitest";
import {
  EMPTY_QUERY,
  clearCategories,
  hasMore,
  totalLabel,
  isFiltered,
  listingHref,
  listingKey,
  nextLimit,
  parseListingQuery,
  sameListing,
  toApiQuery,
  toggleCategory,
  normaliseListingQuery,
  withSearchTerm,
  withOrder,
  type ListingQuery,
} from "./listing-query";

describe("parseListingQuery", () => {
  it("defaults to no filters and 6 results", () => {
    expect(parseListingQuery("")).toEqual(EMPTY_QUERY);
  });

  it("reads q, repeated categories and limit", () => {
    expect(
      parseListingQuery(
        "?q=+vote+&category=Human%20Rights&category=Culture+%26+Politics&limit=12",
      ),
    ).toEqual({
      q: "vote",
      categories: ["Culture & Politics", "Human Rights"],
      limit: 12,
      newest: false,
    });
  });

  it("drops unknown and duplicate categories", () => {
    expect(
      parseListingQuery(
        "category=Sports&category=Youth%20Activism&category=Youth%20Activism",
      ).categories,
    ).toEqual(["Youth Activism"]);
  });

  it("rounds the limit down to whole pages of 6 within 6..48", () => {
    expect(parseListingQuery("limit=abc").limit).toBe(6);
    expect(parseListingQuery("limit=-3").limit).toBe(6);
    expect(parseListingQuery("limit=0").limit).toBe(6);
    expect(parseListingQuery("limit=13").limit).toBe(12);
    expect(parseListingQuery("limit=18").limit).toBe(18);
    expect(parseListingQuery("limit=500").limit).toBe(48);
  });

  it("cuts the search to 200 characters, then trims", () => {
    expect(parseListingQuery(`q=${"a".repeat(199)}%20bc`).q).toBe(
      "a".repeat(199),
    );
  });
});

describe("normaliseListingQuery", () => {
  it("trims, orders and filters categories received from elsewhere", () => {
    expect(
      normaliseListingQuery({
        q: " x ",
        categories: ["Human Rights", "Bogus", "Climate Justice"],
        limit: 12,
        newest: false,
      }),
    ).toEqual({
      q: "x",
      categories: ["Climate Justice", "Human Rights"],
      limit: 12,
      newest: false,
    });
  });
});

describe("listingHref", () => {
  it("is the bare path for the default query", () => {
    expect(listingHref(EMPTY_QUERY)).toBe("/articles");
  });

  it("round-trips through parseListingQuery", () => {
    const query: ListingQuery = {
      q: "a & b",
      categories: ["Digital Democracy", "Climate Justice"],
      limit: 18,
      newest: false,
    };
    const href = listingHref(query);
    expect(href).toBe(
      "/articles?q=a%20%26%20b&category=Climate%20Justice&category=Digital%20Democracy&limit=18",
    );
    expect(parseListingQuery(href.split("?")[1] ?? "")).toEqual({
      ...query,
      categories: ["Climate Justice", "Digital Democracy"],
    });
  });
});

describe("chips", () => {
  const base: ListingQuery = {
    q: "climate",
    categories: ["Human Rights"],
    limit: 18,
    newest: false,
  };

  it("toggles a category on, in canonical order, and resets the limit", () => {
    expect(toggleCategory(base, "International Affairs")).toEqual({
      q: "climate",
      categories: ["International Affairs", "Human Rights"],
      limit: 6,
      newest: false,
    });
  });

  it("toggles a selected category off", () => {
    expect(toggleCategory(base, "Human Rights").categories).toEqual([]);
  });

  it("All clears categories but keeps the search", () => {
    expect(clearCategories(base)).toEqual({
      q: "climate",
      categories: [],
      limit: 6,
      newest: false,
    });
    expect(listingHref(clearCategories(base))).toBe("/articles?q=climate");
  });

  it("a new search keeps categories and resets the limit", () => {
    expect(withSearchTerm(base, "  vote ")).toEqual({
      q: "vote",
      categories: ["Human Rights"],
      limit: 6,
      newest: false,
    });
  });
});

describe("load more", () => {
  it("adds 6 to the limit", () => {
    expect(nextLimit(EMPTY_QUERY)).toBe(12);
    expect(nextLimit({ ...EMPTY_QUERY, limit: 12 })).toBe(18);
  });

  it("has more while fewer are shown than match", () => {
    expect(hasMore(6, 7)).toBe(true);
    expect(hasMore(7, 7)).toBe(false);
    expect(hasMore(0, 0)).toBe(false);
    // A search's total past the count cap is a lower bound: more always remain.
    expect(hasMore(1000, 1000, false)).toBe(true);
    expect(hasMore(1000, 1000, true)).toBe(false);
    // ...unless a page came back shorter than asked for: nothing more can be shown.
    expect(hasMore(1000, 1000, false, 1006)).toBe(false);
    expect(hasMore(200, 200, false, 200)).toBe(true);
    expect(hasMore(37, 37, false, 48)).toBe(false);
  });

  it("labels a total, with a plus when it is a lower bound", () => {
    expect(totalLabel(7, true)).toBe("7");
    expect(totalLabel(94836, true)).toBe("94,836");
    expect(totalLabel(1000, false)).toBe("1,000+");
  });
});

describe("identity and API parameters", () => {
  it("keys ignore the limit; sameListing does not", () => {
    const a: ListingQuery = {
      q: "x",
      categories: ["Human Rights"],
      limit: 6,
      newest: false,
    };
    const b = { ...a, limit: 12 };
    expect(listingKey(a)).toBe(listingKey(b));
    expect(sameListing(a, b)).toBe(false);
    expect(sameListing(a, { ...a })).toBe(true);
  });

  it("knows when filters are active", () => {
    expect(isFiltered(EMPTY_QUERY)).toBe(false);
    expect(isFiltered({ ...EMPTY_QUERY, q: "a" })).toBe(true);
    expect(isFiltered({ ...EMPTY_QUERY, categories: ["Human Rights"] })).toBe(
      true,
    );
  });

  it("builds API parameters, leaving out empty filters", () => {
    expect(toApiQuery(EMPTY_QUERY, 0, 6)).toEqual({
      q: undefined,
      category: [],
      limit: 6,
      offset: 0,
      sort: "newest",
    });
    expect(
      toApiQuery(
        { q: "a", categories: ["Human Rights"], limit: 12, newest: false },
        12,
        6,
      ),
    ).toEqual({
      q: "a",
      category: ["Human Rights"],
      limit: 6,
      offset: 12,
      sort: "relevance",
    });
    // A search the reader asked to see newest first.
    expect(
      toApiQuery({ q: "a", categories: [], limit: 12, newest: true }, 0, 12)
        .sort,
    ).toBe("newest");
  });

  it("reads and writes a search's order", () => {
    const best = parseListingQuery("?q=vote");
    expect(best.newest).toBe(false);
    const newest = withOrder(best, true);
    expect(listingHref(newest)).toBe("/articles?q=vote&sort=newest");
    expect(parseListingQuery("?q=vote&sort=newest")).toEqual(newest);
    expect(listingHref(withOrder(newest, false))).toBe("/articles?q=vote");
    // Without a search there is no order to choose.
    expect(parseListingQuery("?sort=newest").newest).toBe(false);
    expect(listingHref({ ...newest, q: "" })).toBe("/articles");
    expect(listingKey(best)).not.toBe(listingKey(newest));
  });
});
