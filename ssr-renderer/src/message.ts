/** What an error says, for a log line or an answer's `error`. */
export const message = (err: unknown): string =>
  err instanceof Error ? err.message : String(err);
