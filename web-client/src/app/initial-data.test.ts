import { describe, expect, it, vi } from "vitest";
import {
  articleQuery,
  categoryListing,
  homeArticlesQuery,
  listingQuery,
  parseListingQuery,
} from "@/features/content";
import { issueQuery, issuesQuery } from "@/features/outreach/magazine";
import { createQueryClient } from "@/lib/query-client";
import { sampleOf } from "./page-data.sample-of";
import { initialDataFor, seedQueryCache } from "./initial-data";
import type { PageData } from "./page-data";

// What the browser files where (these tests run as the server build does,
// which keeps page data beside the cache: see src/lib/use-query.ts).
vi.mock("@/lib/use-query", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/use-query")>()),
  seedQuery: (
    client: import("@tanstack/react-query").QueryClient,
    key: readonly unknown[],
    data: unknown,
  ) => {
    client.setQueryData(key, data);
  },
}));

const site = { name: "The Agora", url: "https://agora.test" };
const list = { items: [], total: 0, total_exact: true, published_total: 0 };
/** The home page's data as the server sends it. */
const homePage: PageData = {
  site,
  path: "/",
  status: 200,
  kind: "home",
  home: list,
};

describe("initialDataFor", () => {
  it("gives home data on /", () => {
    expect(initialDataFor(homePage, "/", "")).toEqual({ home: list });
    expect(initialDataFor(homePage, "/about", "")).toEqual({});
  });

  it("gives the listing only when the query matches", () => {
    const data: PageData = {
      site,
      path: "/articles?category=Human%20Rights&limit=12",
      status: 200,
      kind: "articles",
      list,
      list_query: {
        q: "",
        categories: ["Human Rights"],
        limit: 12,
        newest: false,
      },
    };
    expect(
      initialDataFor(data, "/articles", "?category=Human+Rights&limit=12"),
    ).toEqual({
      list,
      listing: parseListingQuery("category=Human+Rights&limit=12"),
    });
    expect(
      initialDataFor(data, "/articles", "category=Human%20Rights"),
    ).toEqual({});
  });

  it("gives a category's listing on its page, at the length its address asks", () => {
    const data = sampleOf("category");
    const [pathname, search] = data.path.split("?");
    expect(initialDataFor(data, pathname ?? "", `?${search}`)).toEqual({
      list: data.list,
      listing: categoryListing("Youth Activism", "limit=12"),
    });
    // Another length, or another category's page, is not what the server listed.
    expect(initialDataFor(data, pathname ?? "", "")).toEqual({});
    expect(
      initialDataFor(
        { ...data, path: "/category/human-rights?limit=12" },
        "/category/human-rights",
        "?limit=12",
      ),
    ).toEqual({});
  });

  it("marks a missing article as not found", () => {
    const data: PageData = {
      site,
      path: "/article/gone",
      status: 404,
      kind: "not_found",
    };
    expect(initialDataFor(data, "/article/gone", "")).toEqual({
      article: { kind: "not_found" },
    });
    expect(initialDataFor(data, "/article/other", "")).toEqual({});
  });
});

describe("seedQueryCache", () => {
  it("files each part of the page data under the key its page reads", () => {
    const home = createQueryClient();
    seedQueryCache(home, homePage, "/", "");
    expect(home.getQueryData(homeArticlesQuery().queryKey)).toBe(list);

    const listing = createQueryClient();
    const search = "q=vote&category=Human%20Rights";
    seedQueryCache(
      listing,
      {
        site,
        path: `/articles?${search}`,
        status: 200,
        kind: "articles",
        list,
        list_query: {
          q: "vote",
          categories: ["Human Rights"],
          limit: 6,
          newest: false,
        },
      },
      "/articles",
      `?${search}`,
    );
    const query = listingQuery(parseListingQuery(search));
    expect(listing.getQueryData(query.queryKey)).toBe(list);
  });

  it("files a category's page where the same filter on /articles finds it", () => {
    const client = createQueryClient();
    const data = sampleOf("category");
    seedQueryCache(client, data, "/category/youth-activism", "?limit=12");
    const filtered = listingQuery(
      parseListingQuery("category=Youth+Activism&limit=12"),
    );
    expect(client.getQueryData(filtered.queryKey)).toBe(data.list);
  });

  it("files an article under the decoded slug, as the route gives it", () => {
    const client = createQueryClient();
    const path = "/article/caf%C3%A9/";
    seedQueryCache(
      client,
      { site, path, status: 404, kind: "not_found" },
      path,
      "",
    );
    expect(client.getQueryData(articleQuery("café").queryKey)).toEqual({
      kind: "not_found",
    });
  });

  it("seeds nothing that the address does not show", () => {
    const client = createQueryClient();
    seedQueryCache(client, homePage, "/about", "");
    expect(client.getQueryCache().getAll()).toEqual([]);
  });

  it("files magazine issues for /magazine and one issue (or its absence) for its page", () => {
    const { issue } = sampleOf("issue");
    const client = createQueryClient();
    seedQueryCache(
      client,
      {
        site,
        path: "/magazine",
        status: 200,
        kind: "magazine",
        issues: [issue],
      },
      "/magazine",
      "",
    );
    expect(client.getQueryData(issuesQuery().queryKey)).toEqual([issue]);
    seedQueryCache(
      client,
      {
        site,
        path: `/magazine/${issue.slug}`,
        status: 200,
        kind: "issue",
        issue,
      },
      `/magazine/${issue.slug}`,
      "",
    );
    expect(client.getQueryData(issueQuery(issue.slug).queryKey)).toEqual({
      kind: "found",
      issue,
    });
    seedQueryCache(
      client,
      { site, path: "/magazine/gone", status: 404, kind: "not_found" },
      "/magazine/gone",
      "",
    );
    expect(client.getQueryData(issueQuery("gone").queryKey)).toEqual({
      kind: "not_found",
    });
    // Another page's data is not taken for the issues.
    const other = createQueryClient();
    seedQueryCache(
      other,
      { site, path: "/about", status: 200, kind: "magazine", issues: [issue] },
      "/magazine",
      "",
    );
    expect(other.getQueryData(issuesQuery().queryKey)).toBeUndefined();
  });
});
