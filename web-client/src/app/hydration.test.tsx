import {
  QueryObserver,
  useQuery as useQueryInBrowser,
  type QueryClient,
  type QueryObserverOptions,
} from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ready, render } from "@/entry-server";
import { createQueryClient } from "@/lib/query-client";
import { splitUrl } from "@/lib/query-string";
import { answer, stubApi } from "@/test/api";
import { article, articleOnPage, card } from "@/test/fixtures";
import { settle } from "@/test/query";
import { App } from "./App";
import { seedQueryCache } from "./initial-data";
import { withArticleBody, type PageData } from "./page-data";

/** Whether the render under way is the browser's (else the server's). */
const where = vi.hoisted(() => ({ inBrowser: false }));

// Pages read their queries through @/lib/use-query, which the server build
// (and these tests) answer without an observer: the browser's first render
// is made here with TanStack's own hook, as the client build does.
vi.mock("@/lib/use-query", async (importOriginal) => {
  const onServer = await importOriginal<typeof import("@/lib/use-query")>();
  return {
    ...onServer,
    useQuery: ((options, client) =>
      where.inBrowser
        ? useQueryInBrowser(options, client)
        : onServer.useQuery(options, client)) as typeof onServer.useQuery,
    seedQuery: ((client, key, data) => {
      if (where.inBrowser) client.setQueryData(key, data);
      else onServer.seedQuery(client, key, data);
    }) as typeof onServer.seedQuery,
  };
});

beforeAll(() => ready);

afterEach(() => {
  vi.restoreAllMocks();
});

const site = { name: "The Agora", url: "https://agora.test" };
const stories = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    card({ id: `${i}`, slug: `s${i}`, title: `Story ${i}` }),
  );

/**
 * What the browser does with the server's page: seeds a new query cache
 * from the page data, renders the first time (as hydration does), then
 * mounts: every query that render read gets its observer, as `useQuery`'s
 * subscription does once hydrated.
 */
async function hydrate(url: string, data: PageData) {
  const { pathname, search } = splitUrl(url);
  const client: QueryClient = createQueryClient();
  where.inBrowser = true;
  let html: string;
  try {
    seedQueryCache(client, data, pathname, search);
    html = renderToString(
      <App
        data={data}
        queryClient={client}
        ssrPath={pathname}
        ssrSearch={search}
      />,
    );
  } finally {
    where.inBrowser = false;
  }
  for (const query of client.getQueryCache().getAll()) {
    // The options the render's useQuery gave (key, fetcher, `enabled`).
    const options = query.options as QueryObserverOptions;
    new QueryObserver(client, options).subscribe(() => {});
  }
  await settle();
  return html;
}

describe("hydrating server-rendered pages", () => {
  it("shows the server's listing at once and fetches nothing", async () => {
    const api = stubApi(() =>
      answer(200, {
        items: [],
        total: 0,
        total_exact: true,
        published_total: 0,
      }),
    );
    const url = "/articles?category=Human%20Rights&limit=12";
    const data: PageData = {
      site,
      path: url,
      status: 200,
      kind: "articles",
      list: {
        items: stories(12),
        total: 14,
        total_exact: true,
        published_total: 20,
      },
      list_query: {
        q: "",
        categories: ["Human Rights"],
        limit: 12,
        newest: false,
      },
    };
    const html = await hydrate(url, data);
    expect(html).toBe(render(url, data));
    expect(html).toContain("Story 11");
    expect(html).toContain("/articles?category=Human%20Rights&amp;limit=18");
    expect(html).not.toContain("Loading articles...");
    expect(api.calls).toEqual([]);
  });

  it("fetches a listing the server did not render", async () => {
    const api = stubApi(() =>
      answer(200, {
        items: stories(6),
        total: 6,
        total_exact: true,
        published_total: 6,
      }),
    );
    // The server's list answers limit=6; the address asks for 12.
    const html = await hydrate("/articles?limit=12", {
      site,
      path: "/articles?limit=6",
      status: 200,
      kind: "articles",
      list: {
        items: stories(6),
        total: 14,
        total_exact: true,
        published_total: 14,
      },
      list_query: { q: "", categories: [], limit: 6, newest: false },
    });
    expect(html).toContain("Loading articles...");
    expect(api.to("/v1/articles").map((c) => c.init.params?.query)).toEqual([
      { q: undefined, category: [], limit: 12, offset: 0, sort: "newest" },
    ]);
  });

  it("shows the server's home articles and fetches nothing", async () => {
    const api = stubApi(() => answer(500));
    const html = await hydrate("/", {
      site,
      path: "/",
      status: 200,
      kind: "home",
      home: {
        items: stories(3),
        total: 3,
        total_exact: true,
        published_total: 3,
      },
    });
    expect(html).toContain("Story 2");
    expect(api.calls).toEqual([]);
  });

  it("shows the server's article, or its 404, and fetches nothing", async () => {
    const api = stubApi(() => answer(500));
    const found = await hydrate("/article/voting-at-sixteen", {
      site,
      path: "/article/voting-at-sixteen",
      status: 200,
      kind: "article",
      article: article({ content_html: "<p>Because.</p>" }),
      related: {
        read_next: [],
        author: { name: "Maya Okafor", role: "Writer", articles: [] },
      },
      responses: {
        open: true,
        responses: [
          {
            id: "r1",
            name: "Noor H.",
            body: "Sixteen-year-olds pay taxes: <b>they</b> should vote.",
            created_at: "2026-11-21T10:00:00Z",
          },
        ],
      },
    });
    expect(found).toContain("<p>Because.</p>");
    expect(found).toContain("Maya Okafor");
    // Readers' responses are the server's too, shown as text.
    expect(found).toContain("Responses (1)");
    expect(found).toContain("&lt;b&gt;they&lt;/b&gt; should vote.");
    const newest = {
      items: stories(3),
      total: 3,
      total_exact: true,
      published_total: 3,
    };
    const missing = await hydrate("/article/gone", {
      site,
      path: "/article/gone",
      status: 404,
      kind: "not_found",
      newest,
    });
    expect(missing).toContain("Article not found");
    expect(missing).toContain("Story 2");
    const unknown = await hydrate("/no-such-page", {
      site,
      path: "/no-such-page",
      status: 404,
      kind: "not_found",
      newest,
    });
    expect(unknown).toContain("Oops! Page not found");
    expect(unknown).toContain("Story 0");
    expect(api.calls).toEqual([]);
  });

  it("reads an article's body back from the served page, or else fetches the article", async () => {
    const bare = articleOnPage();
    const served: PageData = {
      site,
      path: "/article/voting-at-sixteen",
      status: 200,
      kind: "article",
      article: bare,
      related: { read_next: [] },
      responses: { open: true, responses: [] },
    };
    const quiet = stubApi(() => answer(500));
    const found = await hydrate(
      "/article/voting-at-sixteen",
      withArticleBody(served, "<p>From the markup.</p>"),
    );
    expect(found).toContain("<p>From the markup.</p>");
    expect(quiet.calls).toEqual([]);
    vi.restoreAllMocks();

    // No body to read back (never served so): the page asks the API for it.
    const api = stubApi(() =>
      answer(200, article({ content_html: "<p>From the API.</p>" })),
    );
    await hydrate(
      "/article/voting-at-sixteen",
      withArticleBody(served, undefined),
    );
    expect(api.calls.map((c) => c.path)).toContain("/v1/articles/{slug_or_id}");
  });

  it("offers Account to a reader the server saw, in the first render", async () => {
    stubApi(() => answer(401));
    const signedIn = await hydrate("/about", {
      site,
      path: "/about",
      status: 200,
      kind: "plain",
      reader: true,
    });
    expect(signedIn).toContain(">Account</a>");
    expect(signedIn).not.toContain(">Login</a>");
    const signedOut = await hydrate("/about", {
      site,
      path: "/about",
      status: 200,
      kind: "plain",
    });
    expect(signedOut).toContain(">Login</a>");
  });

  it("asks nobody about the session when no one is signed in", async () => {
    const api = stubApi(() => answer(401));
    await hydrate("/about", {
      site,
      path: "/about",
      status: 200,
      kind: "plain",
    });
    expect(api.to("/v1/me")).toEqual([]);
  });
});
