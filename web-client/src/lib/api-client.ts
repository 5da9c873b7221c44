import createClient from "openapi-fetch";
import type { paths } from "@/api/schema";

/**
 * Typed client for the JSON API. The contract's server is `/api` on the page's
 * own origin, so paths read `/v1/...`. Only the browser calls it: server-side
 * rendering receives its data from the Rust app instead.
 */
export const api = createClient<paths>({ baseUrl: "/api" });
