import {
  keepPreviousData,
  onlineManager,
  QueryClientProvider,
  skipToken,
  useQuery as useQueryOfTanStack,
  type QueryClient,
  type UseQueryOptions,
} from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "./query-client";
import { queryResultOnServer, seedQuery } from "./use-query";

type Options = UseQueryOptions<unknown, Error, unknown>;

const KEY = ["thing", 1];
const fetcher = () => Promise.resolve({ n: 2 });

/** The result `useQuery` gives on the server, by TanStack's hook. */
function byTanStack(client: QueryClient, options: Options) {
  let result: Record<string, unknown> | undefined;
  function Probe() {
    result = { ...useQueryOfTanStack(options) };
    return null;
  }
  renderToString(
    <QueryClientProvider client={client}>
      <Probe />
    </QueryClientProvider>,
  );
  return result;
}

/** The same by ours, in the same render. */
function byOurs(client: QueryClient, options: Options) {
  let result: Record<string, unknown> | undefined;
  function Probe() {
    result = { ...queryResultOnServer(client, options as never) };
    return null;
  }
  renderToString(
    <QueryClientProvider client={client}>
      <Probe />
    </QueryClientProvider>,
  );
  return result;
}

/** What a component can read: every field, functions only by their kind. */
function observable(result: Record<string, unknown> | undefined) {
  return Object.fromEntries(
    Object.entries(result ?? {}).map(([k, v]) => [
      k,
      typeof v === "function" ? "function" : v,
    ]),
  );
}

/** How page data is put in the cache: as the browser does, or the server. */
type Seed = (client: QueryClient, key: typeof KEY, data: unknown) => void;
const inCache: Seed = (client, key, data) => {
  client.setQueryData(key, data);
};

/**
 * Ours and TanStack's, each from its own client prepared alike; ours seeded
 * by `seed`, TanStack's by `setQueryData`.
 */
function both(
  options: Options,
  prepare: (client: QueryClient, seed: Seed) => void = () => {},
  elapsed = 0,
  seed: Seed = inCache,
) {
  const ours = createQueryClient();
  const theirs = createQueryClient();
  prepare(ours, seed);
  prepare(theirs, inCache);
  vi.advanceTimersByTime(elapsed);
  return {
    ours: observable(byOurs(ours, options)),
    theirs: observable(byTanStack(theirs, options)),
  };
}

const seeded = (client: QueryClient, seed: Seed) => {
  seed(client, KEY, { n: 1 });
};
const failed =
  (count = 1) =>
  (client: QueryClient) => {
    client
      .getQueryCache()
      .build(client, { queryKey: KEY })
      .setState({
        status: "error",
        error: new Error("no"),
        errorUpdateCount: count,
        errorUpdatedAt: Date.now(),
      });
  };

/** A name, the options, how the cache is prepared, the time since then. */
const CASES: [
  string,
  Options,
  ((c: QueryClient, seed: Seed) => void)?,
  number?,
][] = [
  ["seeded data, fresh", { queryKey: KEY, queryFn: fetcher }, seeded],
  [
    "seeded data, stale by its own staleTime",
    { queryKey: KEY, queryFn: fetcher, staleTime: 0 },
    seeded,
  ],
  [
    "seeded data, older than the client's staleTime",
    { queryKey: KEY, queryFn: fetcher },
    seeded,
    61_000,
  ],
  [
    "stale, not refetched on mount",
    { queryKey: KEY, queryFn: fetcher, staleTime: 0, refetchOnMount: false },
    seeded,
  ],
  [
    "fresh, always refetched on mount",
    { queryKey: KEY, queryFn: fetcher, refetchOnMount: "always" },
    seeded,
  ],
  [
    "static",
    { queryKey: KEY, queryFn: fetcher, staleTime: "static" },
    seeded,
    61_000,
  ],
  [
    "staleTime explicitly undefined",
    { queryKey: KEY, queryFn: fetcher, staleTime: undefined },
    seeded,
  ],
  [
    "staleTime as a function of the query",
    { queryKey: KEY, queryFn: fetcher, staleTime: () => 0 },
    seeded,
  ],
  [
    "the key's own defaults",
    { queryKey: KEY, queryFn: fetcher },
    (client, seed) => {
      client.setQueryDefaults(["thing"], { staleTime: 0 });
      seeded(client, seed);
    },
  ],
  [
    "invalidated",
    { queryKey: KEY, queryFn: fetcher },
    (client) => {
      seeded(client, inCache);
      void client.invalidateQueries({ queryKey: KEY, refetchType: "none" });
    },
  ],
  ["no data", { queryKey: KEY, queryFn: fetcher }],
  ["no data, disabled", { queryKey: KEY, queryFn: fetcher, enabled: false }],
  [
    "no data, disabled by a function",
    { queryKey: KEY, queryFn: fetcher, enabled: () => false },
  ],
  [
    "seeded, disabled",
    { queryKey: KEY, queryFn: fetcher, enabled: false },
    seeded,
  ],
  ["no data, skipToken", { queryKey: KEY, queryFn: skipToken }],
  ["seeded, skipToken", { queryKey: KEY, queryFn: skipToken }, seeded],
  [
    "no data, a placeholder",
    { queryKey: KEY, queryFn: fetcher, placeholderData: { n: 0 } },
  ],
  [
    "no data, keepPreviousData",
    { queryKey: KEY, queryFn: fetcher, placeholderData: keepPreviousData },
  ],
  [
    "seeded, select",
    { queryKey: KEY, queryFn: fetcher, select: (d) => ({ picked: d }) },
    seeded,
  ],
  [
    "seeded, a select that throws",
    {
      queryKey: KEY,
      queryFn: fetcher,
      select: () => {
        throw new Error("bad select");
      },
    },
    seeded,
  ],
  [
    "a placeholder, selected",
    {
      queryKey: KEY,
      queryFn: fetcher,
      placeholderData: { n: 0 },
      select: (d) => ({ picked: d }),
    },
  ],
  ["failed, retried on mount", { queryKey: KEY, queryFn: fetcher }, failed()],
  [
    "failed, not retried on mount",
    { queryKey: KEY, queryFn: fetcher, retryOnMount: false },
    failed(),
  ],
  [
    "a query hash of its own",
    {
      queryKey: KEY,
      queryFn: fetcher,
      queryKeyHashFn: (key) => `custom:${JSON.stringify(key)}`,
    },
    seeded,
  ],
];

describe("useQuery on the server, without an observer", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-12-06T12:00:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
    onlineManager.setOnline(true);
  });

  it.each(CASES)(
    "gives what TanStack's hook gives: %s",
    (_, options, prepare, elapsed) => {
      const { ours, theirs } = both(options, prepare, elapsed);
      expect(ours).toEqual(theirs);
    },
  );

  it.each(CASES)(
    "gives the same from page data seeded on the server: %s",
    (_, options, prepare, elapsed) => {
      const { ours, theirs } = both(options, prepare, elapsed, seedQuery);
      expect(ours).toEqual(theirs);
    },
  );

  it("keeps page data seeded on the server out of the query cache", () => {
    const client = createQueryClient();
    seedQuery(client, KEY, { n: 1 });
    expect(client.getQueryCache().getAll()).toHaveLength(0);
    const shown = byOurs(client, { queryKey: KEY, queryFn: fetcher });
    expect(shown).toMatchObject({ data: { n: 1 }, isSuccess: true });
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });

  it("gives what TanStack's hook gives offline, by network mode", () => {
    onlineManager.setOnline(false);
    for (const networkMode of ["online", "always", "offlineFirst"] as const) {
      const { ours, theirs } = both({
        queryKey: KEY,
        queryFn: fetcher,
        networkMode,
      });
      expect(ours).toEqual(theirs);
      expect(ours.fetchStatus).toBe(
        networkMode === "online" ? "paused" : "fetching",
      );
    }
  });

  it("throws an error where TanStack's hook throws it", () => {
    const options: Options = {
      queryKey: KEY,
      queryFn: fetcher,
      retryOnMount: false,
      throwOnError: true,
    };
    const ours = createQueryClient();
    const theirs = createQueryClient();
    failed()(ours);
    failed()(theirs);
    expect(() => byTanStack(theirs, options)).toThrow("no");
    expect(() => byOurs(ours, options)).toThrow("no");
  });

  it("says what a page shows: the seeded data, or loading", () => {
    const client = createQueryClient();
    seedQuery(client, KEY, { n: 1 });
    const shown = byOurs(client, { queryKey: KEY, queryFn: fetcher });
    expect(shown).toMatchObject({
      data: { n: 1 },
      isSuccess: true,
      isFetching: false,
    });
    const other = byOurs(client, { queryKey: ["other"], queryFn: fetcher });
    expect(other).toMatchObject({
      data: undefined,
      isPending: true,
      isFetching: true,
    });
  });
});
