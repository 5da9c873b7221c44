import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "@/lib/query-client";
import { answer, stubApi } from "@/test/api";
import { article, card } from "@/test/fixtures";
import { mount, settle } from "@/test/query";
import { EMPTY_QUERY } from "@/features/content/listing-query";
import { articleQuery } from "./get-article";
import { articlesQuery, homeArticlesQuery } from "./get-articles";
import { invalidatePublicArticles } from "./keys";
import type { ArticleResult } from "./types";
import { listingQuery, loadNextPage } from "./use-article-listing";

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const cards = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) =>
    card({
      id: `a${from + i}`,
      slug: `s${from + i}`,
      title: `Story ${from + i}`,
    }),
  );

describe("article query", () => {
  it("takes a 404 as the answer: not found, asked once", async () => {
    const api = stubApi(() => answer(404, { code: "not_found", message: "" }));
    const client = createQueryClient();
    const page = mount(client, articleQuery("gone"));
    await settle();
    expect(page.result().data).toEqual({ kind: "not_found" });
    expect(api.to("/v1/articles/{slug_or_id}")).toHaveLength(1);
  });

  it("tries a 5xx twice more, then fails", async () => {
    vi.useFakeTimers();
    const api = stubApi(() => answer(503));
    const client = createQueryClient();
    const page = mount(client, articleQuery("veto"));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.calls).toHaveLength(3);
    expect(page.result().status).toBe("error");
    expect(page.result().data).toBeUndefined();
  });

  it("recovers from a network failure on the next try", async () => {
    vi.useFakeTimers();
    let tries = 0;
    stubApi(() => {
      tries += 1;
      if (tries === 1) throw new TypeError("Failed to fetch");
      return answer(200, article());
    });
    const client = createQueryClient();
    const page = mount(client, articleQuery("voting-at-sixteen"));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(tries).toBe(2);
    expect(page.result().data).toEqual({ kind: "found", article: article() });
  });
});

describe("article lists", () => {
  it("asks once for the same list, however many want it", async () => {
    const api = stubApi(() =>
      answer(200, {
        items: [],
        total: 0,
        total_exact: true,
        published_total: 0,
      }),
    );
    const client = createQueryClient();
    mount(client, homeArticlesQuery());
    mount(client, homeArticlesQuery());
    await settle();
    expect(api.to("/v1/articles")).toHaveLength(1);
    expect(api.calls[0]?.init.params?.query).toEqual({
      sort: "featured",
      limit: 3,
      category: [],
    });
  });

  it("does not ask again for a list seen a moment ago", async () => {
    const api = stubApi(() =>
      answer(200, {
        items: [],
        total: 0,
        total_exact: true,
        published_total: 0,
      }),
    );
    const client = createQueryClient();
    const first = mount(client, listingQuery(EMPTY_QUERY));
    await settle();
    first.unmount(); // e.g. off to an article, and back
    mount(client, listingQuery(EMPTY_QUERY));
    await settle();
    expect(api.calls).toHaveLength(1);
  });

  it("Load More fetches only the next page and files the longer list under the next URL", async () => {
    const api = stubApi(({ init }) =>
      answer(200, {
        items: cards(Number(init.params?.query?.offset), 6),
        total: 20,
        total_exact: true,
        published_total: 20,
      }),
    );
    const client = createQueryClient();
    const first = {
      items: cards(0, 6),
      total: 20,
      total_exact: true,
      published_total: 20,
    };
    client.setQueryData(listingQuery(EMPTY_QUERY).queryKey, first);

    await loadNextPage(client, EMPTY_QUERY, first);
    expect(api.calls.map((c) => c.init.params?.query)).toEqual([
      { q: undefined, category: [], limit: 6, offset: 6, sort: "newest" },
    ]);
    const next = client.getQueryData(
      listingQuery({ ...EMPTY_QUERY, limit: 12 }).queryKey,
    );
    expect(next?.items.map((a) => a.id)).toEqual(cards(0, 12).map((a) => a.id));
    expect(next?.total).toBe(20);

    // Following the new URL shows it without another request.
    mount(client, listingQuery({ ...EMPTY_QUERY, limit: 12 }));
    await settle();
    expect(api.calls).toHaveLength(1);
  });

  it("a staff change makes cached public lists and articles stale", async () => {
    const api = stubApi(() =>
      answer(200, {
        items: [],
        total: 0,
        total_exact: true,
        published_total: 0,
      }),
    );
    const client = createQueryClient();
    client.setQueryData(listingQuery(EMPTY_QUERY).queryKey, {
      items: cards(0, 1),
      total: 1,
      total_exact: true,
      published_total: 1,
    });
    const found: ArticleResult = { kind: "found", article: article() };
    client.setQueryData(articleQuery("s0").queryKey, found);
    const listing = mount(client, listingQuery(EMPTY_QUERY));
    await settle();
    expect(api.calls).toHaveLength(0);

    await invalidatePublicArticles(client);
    // The list on screen is fetched again; the article when next opened.
    expect(api.to("/v1/articles")).toHaveLength(1);
    expect(listing.result().data?.items).toEqual([]);
    expect(
      client.getQueryState(articleQuery("s0").queryKey)?.isInvalidated,
    ).toBe(true);
    expect(
      client.getQueryState(articlesQuery({ limit: 3 }).queryKey),
    ).toBeUndefined();
  });
});
