/** Query keys of the identity feature. */
export const sessionKeys = {
  /** GET /v1/me: who the session cookie belongs to. */
  me: ["session", "me"] as const,
};
