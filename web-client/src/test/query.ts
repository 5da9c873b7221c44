import {
  QueryObserver,
  type QueryClient,
  type QueryKey,
  type QueryObserverOptions,
} from "@tanstack/react-query";

/**
 * Does what `useQuery` does when a component mounts: subscribes an observer
 * with `options` (which fetches unless the cache holds fresh data).
 */
export function mount<T, Key extends QueryKey>(
  client: QueryClient,
  options: QueryObserverOptions<T, Error, T, T, Key>,
) {
  const observer = new QueryObserver(client, options);
  const unmount = observer.subscribe(() => {});
  return { result: () => observer.getCurrentResult(), unmount };
}

/** Lets pending requests and notifications run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
