import { api, errorMessage } from "@/lib/api-client";
import type { LoginOutcome, StaffUser } from "@/lib/session";

/** POST /api/v1/session: the server sets the HttpOnly session cookie. */
export async function signIn(accessKey: string): Promise<LoginOutcome> {
  try {
    const { data, error } = await api.POST("/v1/session", {
      body: { access_key: accessKey },
    });
    if (data) return { ok: true, user: data };
    // 401 "Invalid access key.", 429 "Too many attempts…", 400 empty key.
    return { ok: false, message: errorMessage(error) || "Invalid access key." };
  } catch (cause) {
    console.error("Sign-in request failed", cause);
    return { ok: false, message: "Login failed" };
  }
}

/** DELETE /api/v1/session; the local state is cleared whatever happens here. */
export async function signOut(): Promise<void> {
  try {
    await api.DELETE("/v1/session");
  } catch (cause) {
    console.error("Sign-out request failed", cause);
  }
}

export type MeResult =
  | { kind: "user"; user: StaffUser }
  | { kind: "signed_out" }
  | { kind: "unknown" };

/** GET /api/v1/me: who the session cookie belongs to. Never rejects. */
export async function fetchMe(signal?: AbortSignal): Promise<MeResult> {
  try {
    const { data, response } = await api.GET("/v1/me", { signal });
    if (data) return { kind: "user", user: data };
    if (response.status === 401) return { kind: "signed_out" };
    return { kind: "unknown" };
  } catch {
    return { kind: "unknown" };
  }
}
