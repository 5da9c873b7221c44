import type { QueryClient } from "@tanstack/react-query";
import type { Account, Outcome } from "./readers";

/** Query keys of the readers feature. */
export const readerKeys = {
  /** The account page's query: the server's answer to GET /v1/reader/account. */
  account: ["reader", "account"] as const,
  /** The reader's responses to articles: GET /v1/reader/responses. */
  responses: ["reader", "responses"] as const,
};

/** A save answered with the account as it now stands: the page shows it. */
export function accountSaved(queryClient: QueryClient, account: Account) {
  const saved: Outcome<Account> = { ok: true, data: account };
  queryClient.setQueryData(readerKeys.account, saved);
}

/** Signed out, or the account deleted: nothing of it stays in the cache. */
export function accountGone(queryClient: QueryClient) {
  queryClient.removeQueries({ queryKey: readerKeys.account });
  queryClient.removeQueries({ queryKey: readerKeys.responses });
}
