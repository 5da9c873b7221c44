import {
  hashKey,
  onlineManager,
  skipToken,
  useQuery as useQueryInBrowser,
  useQueryClient,
  type DataTag,
  type DefaultError,
  type Query,
  type QueryClient,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
} from "@tanstack/react-query";

type AnyOptions = UseQueryOptions<unknown, DefaultError, unknown, QueryKey>;
type AnyQuery = Query<unknown, DefaultError, unknown, QueryKey>;

/** Data put in a server render's cache, and when. */
interface Seeded {
  data: unknown;
  at: number;
}

/**
 * What each server render's client holds (see `seedQuery`): kept beside its
 * query cache, not in it, and gone with the client.
 */
const seededOnServer = new WeakMap<QueryClient, Map<string, Seeded>>();

/** An option as `defaultQueryOptions` merges it: `given`'s, else the key's
 * defaults', else the client's (an own property set to undefined wins, as in
 * a spread). */
function optionOf(client: QueryClient, given: Partial<AnyOptions>) {
  const defaults = client.getDefaultOptions().queries ?? {};
  const forKey = client.getQueryDefaults(given.queryKey as QueryKey);
  return <K extends keyof AnyOptions>(name: K): AnyOptions[K] =>
    Object.hasOwn(given, name)
      ? (given[name] as AnyOptions[K])
      : Object.hasOwn(forKey, name)
        ? (forKey as AnyOptions)[name]
        : (defaults as AnyOptions)[name];
}

/** The hash of a query's key, as its query is kept under. */
function hashOf(
  option: ReturnType<typeof optionOf>,
  queryKey: QueryKey,
  queryHash?: string,
): string {
  return queryHash ?? (option("queryKeyHashFn") ?? hashKey)(queryKey);
}

function seedOnServer(client: QueryClient, key: QueryKey, data: unknown) {
  if (data === undefined) return;
  let seeded = seededOnServer.get(client);
  if (!seeded) {
    seeded = new Map();
    seededOnServer.set(client, seeded);
  }
  seeded.set(hashOf(optionOf(client, { queryKey: key }), key), {
    data,
    at: Date.now(),
  });
}

/**
 * Puts the page data for `key` where the first render reads it:
 * `setQueryData` in the browser; on the server, beside the cache, where
 * `useQuery` below finds it without making a query (see
 * `queryResultOnServer`).
 */
export const seedQuery: <Data = unknown, Key extends QueryKey = QueryKey>(
  client: QueryClient,
  key: Key,
  // What `setQueryData` takes for `key`: the type its tag holds, if any.
  data: NoInfer<
    Key extends DataTag<unknown, infer Tagged, unknown> ? Tagged : Data
  >,
) => void = import.meta.env.SSR
  ? seedOnServer
  : (client, key, data) => {
      client.setQueryData(key, data);
    };

/** A query's state before its first fetch (TanStack's `getDefaultState`). */
function unfetched(): AnyQuery["state"] {
  return {
    data: undefined,
    dataUpdateCount: 0,
    dataUpdatedAt: 0,
    error: null,
    errorUpdateCount: 0,
    errorUpdatedAt: 0,
    fetchFailureCount: 0,
    fetchFailureReason: null,
    fetchMeta: null,
    isInvalidated: false,
    status: "pending",
    fetchStatus: "idle",
  };
}

/** The state `setQueryData` gives a new query. */
function given(seeded: Seeded): AnyQuery["state"] {
  return {
    ...unfetched(),
    data: seeded.data,
    dataUpdateCount: 1,
    dataUpdatedAt: seeded.at,
    status: "success",
  };
}

/** Options that are functions of the query, or data it starts with. */
function needsQuery(option: ReturnType<typeof optionOf>): boolean {
  return (
    (
      [
        "enabled",
        "staleTime",
        "refetchOnMount",
        "retryOnMount",
        "throwOnError",
      ] as const
    ).some((name) => typeof option(name) === "function") ||
    option("initialData") !== undefined
  );
}

/**
 * What `useQuery` gives while a page is rendered on the server, computed
 * without an observer, as TanStack Query's own `QueryObserver.createResult`
 * does for a first render that has not mounted (`use-query.test.tsx` holds
 * the two side by side, option by option).
 *
 * The observer costs more than the rest of a query's render: merging the
 * defaults into the options twice, a query made for every key, an observer
 * with its options compared and its state kept, a store subscription. On the
 * server none of it is used — a render is made once, never mounts, never
 * fetches — and it was a fifth of the sidecar's time. The data is the same,
 * and so is the first render in the browser, which hydrates with the same
 * page data and the real hook.
 */
export function queryResultOnServer(
  client: QueryClient,
  options: AnyOptions,
): UseQueryResult<unknown, DefaultError> {
  const option = optionOf(client, options);
  const hash = hashOf(option, options.queryKey, options.queryHash);
  const cache = client.getQueryCache();
  const seeded = seededOnServer.get(client)?.get(hash);
  let query: AnyQuery | undefined = cache.get(hash);
  if (!query && needsQuery(option)) {
    // Rare (no page of ours): options that read the query get a real one.
    if (seeded) {
      client.setQueryData(options.queryKey, seeded.data, {
        updatedAt: seeded.at,
      });
    }
    query = cache.build(client, client.defaultQueryOptions(options));
  }
  const state = query?.state ?? (seeded ? given(seeded) : unfetched());
  // The network mode the query was made with: the hook's for a query it
  // makes, the defaults' for one `setQueryData` made.
  const networkMode =
    (query
      ? query.options.networkMode
      : seeded
        ? optionOf(client, { queryKey: options.queryKey })("networkMode")
        : option("networkMode")) ?? "online";
  const resolve = <T>(value: T | ((query: AnyQuery) => T)): T =>
    typeof value === "function"
      ? (value as (query: AnyQuery) => T)(query as AnyQuery)
      : value;

  // A query whose function is `skipToken` is disabled, whatever `enabled` says.
  const enabled =
    option("queryFn") !== skipToken && resolve(option("enabled")) !== false;
  const staleTime = resolve(option("staleTime"));
  const stale =
    enabled &&
    (state.data === undefined ||
      (staleTime !== "static" &&
        (state.isInvalidated ||
          state.dataUpdatedAt + (staleTime || 0) - Date.now() <= 0)));
  // The observer would fetch once mounted, so its first result says it is
  // fetching: a query without data, or one with stale data it refreshes.
  const loads =
    enabled &&
    state.data === undefined &&
    !(state.status === "error" && resolve(option("retryOnMount")) === false);
  const refreshes = (() => {
    if (state.data === undefined || !enabled || staleTime === "static")
      return false;
    const onMount = resolve(option("refetchOnMount"));
    return onMount === "always" || (onMount !== false && stale);
  })();
  const fetches = loads || refreshes;
  const fetchStatus = fetches
    ? networkMode !== "online" || onlineManager.isOnline()
      ? "fetching"
      : "paused"
    : state.fetchStatus;
  let status = state.status;
  let error = state.error;
  let errorUpdatedAt = state.errorUpdatedAt;
  let data = state.data;
  if (fetches && state.data === undefined) {
    status = "pending";
    error = null;
  }

  let isPlaceholderData = false;
  const placeholder = option("placeholderData");
  if (placeholder !== undefined && data === undefined && status === "pending") {
    const shown =
      typeof placeholder === "function"
        ? (placeholder as (previous: undefined, query: undefined) => unknown)(
            undefined,
            undefined,
          )
        : placeholder;
    if (shown !== undefined) {
      status = "success";
      data = shown;
      isPlaceholderData = true;
    }
  }
  const select = option("select");
  if (select && data !== undefined) {
    try {
      data = select(data);
    } catch (selectError) {
      error = selectError as DefaultError;
      data = undefined;
      errorUpdatedAt = Date.now();
      status = "error";
      isPlaceholderData = false;
    }
  }

  const isFetching = fetchStatus === "fetching";
  const isPending = status === "pending";
  const isError = status === "error";
  const hasData = data !== undefined;
  const throwOnError = option("throwOnError");
  if (
    isError &&
    !isFetching &&
    (typeof throwOnError === "function"
      ? throwOnError(error as DefaultError, query as AnyQuery)
      : throwOnError)
  ) {
    throw error;
  }
  return {
    status,
    fetchStatus,
    isPending,
    isSuccess: status === "success",
    isError,
    isInitialLoading: isPending && isFetching,
    isLoading: isPending && isFetching,
    data,
    dataUpdatedAt: state.dataUpdatedAt,
    error,
    errorUpdatedAt,
    failureCount: fetches ? 0 : state.fetchFailureCount,
    failureReason: fetches ? null : state.fetchFailureReason,
    errorUpdateCount: state.errorUpdateCount,
    isFetched: state.dataUpdateCount + state.errorUpdateCount > 0,
    isFetchedAfterMount: false,
    isFetching,
    isRefetching: isFetching && !isPending,
    isLoadingError: isError && !hasData,
    isPaused: fetchStatus === "paused",
    isPlaceholderData,
    isRefetchError: isError && hasData,
    isStale: stale,
    isEnabled: enabled,
    refetch: () =>
      Promise.reject(new Error("no refetch while rendering on the server")),
  } as UseQueryResult<unknown, DefaultError>;
}

function useQueryOnServer(
  options: AnyOptions,
  queryClient?: QueryClient,
): UseQueryResult<unknown, DefaultError> {
  return queryResultOnServer(useQueryClient(queryClient), options);
}

/**
 * TanStack Query's `useQuery`; in the server build, the same result read
 * straight from the render's query cache (see `queryResultOnServer`).
 */
export const useQuery: typeof useQueryInBrowser = import.meta.env.SSR
  ? (useQueryOnServer as typeof useQueryInBrowser)
  : useQueryInBrowser;
