import { useRouter } from "wouter";
import { useSearch } from "wouter/use-browser-location";

/**
 * The current query string, undecoded. wouter's own `useSearch` runs it through
 * `decodeURI`, which would turn an encoded "%25" into a bare "%" before
 * URLSearchParams sees it. On the server this is the `ssrSearch` of <Router>.
 */
export function useRawSearch(): string {
  const { ssrSearch } = useRouter();
  return useSearch({ ssrSearch });
}
