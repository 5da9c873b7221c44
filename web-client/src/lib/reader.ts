import { createContext, useContext, useSyncExternalStore } from "react";
import type { components } from "@/api/schema";

/**
 * Whether a reader is signed in, as this browser remembers it: their first
 * name in `localStorage` (the session itself is an HttpOnly cookie the page
 * cannot read). The header shows "Account" instead of "Login" from it; the
 * account page asks the server and corrects it.
 */
export const READER_STORAGE_KEY = "agora_reader";

const listeners = new Set<() => void>();

/**
 * Whether the server saw a reader's session cookie on the request for this
 * page: its markup then offers "Account" (also without JavaScript).
 */
export const ReaderHintContext = createContext(false);

/** This tab signed the reader out since the page loaded. */
let forgotten = false;

function read(): string | null {
  try {
    const name = window.localStorage.getItem(READER_STORAGE_KEY);
    return name === null ? null : name.slice(0, 100);
  } catch {
    return null;
  }
}

/** Remembers the signed-in reader's first name, or (`null`) forgets them. */
export function rememberReader(firstName: string | null): void {
  try {
    forgotten = firstName === null;
    if (firstName === null) window.localStorage.removeItem(READER_STORAGE_KEY);
    else window.localStorage.setItem(READER_STORAGE_KEY, firstName);
  } catch {
    // Storage refused (private mode, a full quota): the header keeps "Login".
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === READER_STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/**
 * The signed-in reader's first name; `""` for a reader whose name this browser
 * does not know but whose session the server saw; `null` when signed out.
 */
export function useReaderName(): string | null {
  const hinted = useContext(ReaderHintContext);
  return useSyncExternalStore(
    subscribe,
    () => read() ?? (hinted && !forgotten ? "" : null),
    () => (hinted ? "" : null),
  );
}

type Account = components["schemas"]["Account"];

/**
 * What the server said about the account when it rendered `/account`: the
 * account, or "not signed in" (the page data has no account then).
 */
export function servedAccount(account: Account | undefined) {
  return account
    ? ({ ok: true, data: account } as const)
    : ({
        ok: false,
        status: 401,
        code: "not_signed_in",
        message: "",
      } as const);
}
