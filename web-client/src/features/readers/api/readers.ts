import type { components } from "@/api/schema";
import { api } from "@/lib/api-client";
import { rememberReader } from "@/lib/reader";

export type Account = components["schemas"]["Account"];
export type Subscriptions = components["schemas"]["Subscriptions"];
export type ProfileInput = components["schemas"]["ProfileInput"];
type ErrorCode = components["schemas"]["ErrorCode"];

export type Outcome<T> =
  | { ok: true; data: T }
  /** Refused (4xx) with the server's code and message, or failed (`status` 0 or 5xx). */
  | { ok: false; status: number; code: ErrorCode | ""; message: string };

const UNREACHABLE =
  "Something went wrong. Please check your connection and try again.";

function refused(status: number, error: unknown): Outcome<never> {
  const body =
    typeof error === "object" && error !== null
      ? (error as Record<string, unknown>)
      : {};
  const message =
    status < 500 && typeof body.message === "string" && body.message !== ""
      ? body.message
      : UNREACHABLE;
  const code = typeof body.code === "string" ? (body.code as ErrorCode) : "";
  return { ok: false, status, code, message };
}

async function call<T>(
  run: () => Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<Outcome<T>> {
  try {
    const { data, error, response } = await run();
    if (response.ok) return { ok: true, data: data as T };
    if (response.status === 401) rememberReader(null);
    return refused(response.status, error);
  } catch {
    return { ok: false, status: 0, code: "", message: UNREACHABLE };
  }
}

function signedIn(outcome: Outcome<{ first_name: string }>) {
  if (outcome.ok) rememberReader(outcome.data.first_name);
  return outcome;
}

export async function signIn(email: string, password: string) {
  return signedIn(
    await call(() =>
      api.POST("/v1/reader/session", { body: { email, password } }),
    ),
  );
}

export async function signOut() {
  rememberReader(null);
  return call(() => api.DELETE("/v1/reader/session"));
}

export function requestSignInLink(email: string) {
  return call(() => api.POST("/v1/reader/sign-in-link", { body: { email } }));
}

export async function signInWithLink(token: string) {
  return signedIn(
    await call(() =>
      api.POST("/v1/reader/sign-in-link/use", { body: { token } }),
    ),
  );
}

export function requestPasswordReset(email: string) {
  return call(() => api.POST("/v1/reader/password-reset", { body: { email } }));
}

export async function resetPassword(
  token: string,
  password: string,
  confirmPassword: string,
) {
  return signedIn(
    await call(() =>
      api.POST("/v1/reader/password-reset/use", {
        body: { token, password, confirm_password: confirmPassword },
      }),
    ),
  );
}

export function resendConfirmation(email: string) {
  return call(() => api.POST("/v1/accounts/confirmation", { body: { email } }));
}

export function getAccount(signal?: AbortSignal) {
  return call(() => api.GET("/v1/reader/account", { signal }));
}

export function updateProfile(body: ProfileInput) {
  return call(() => api.PUT("/v1/reader/account", { body }));
}

export function setSubscriptions(body: Subscriptions) {
  return call(() => api.PUT("/v1/reader/account/subscriptions", { body }));
}

export function changePassword(
  current: string,
  password: string,
  confirmPassword: string,
) {
  return call(() =>
    api.PUT("/v1/reader/account/password", {
      body: {
        current_password: current,
        password,
        confirm_password: confirmPassword,
      },
    }),
  );
}

export async function deleteAccount(password: string) {
  const outcome = await call(() =>
    api.DELETE("/v1/reader/account", { body: { password } }),
  );
  if (outcome.ok) rememberReader(null);
  return outcome;
}

export type MyResponse = components["schemas"]["MyResponse"];

/** GET /api/v1/reader/responses: the reader's responses, newest first. */
export function getMyResponses(signal?: AbortSignal) {
  return call(() => api.GET("/v1/reader/responses", { signal }));
}

/** DELETE /api/v1/reader/responses/{id}. */
export function deleteMyResponse(id: string) {
  return call(() =>
    api.DELETE("/v1/reader/responses/{id}", { params: { path: { id } } }),
  );
}

/** Where the data download is served (a plain link: the browser saves it). */
export const EXPORT_URL = "/api/v1/reader/account/export";
