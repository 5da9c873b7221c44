import type { components } from "@/api/schema";
import { api } from "@/lib/api-client";
import type { ToastText } from "@/features/outreach/validation";

type NotifyList = components["schemas"]["NotifyList"];
type ContactInput = components["schemas"]["ContactInput"];

export type SendResult =
  | { ok: true }
  /** The server refused the input (400) with its own wording. */
  | { ok: false; refused: ToastText }
  /** Network failure or a server error. */
  | { ok: false; refused: null };

/** The `title`/`message` of a 400 body, when both are present. */
function refusal(error: unknown): ToastText | null {
  if (typeof error !== "object" || error === null) return null;
  const { title, message } = error as Record<string, unknown>;
  if (typeof message !== "string" || message === "") return null;
  return { title: typeof title === "string" ? title : "", message };
}

async function send(
  call: () => Promise<{ error?: unknown; response: Response }>,
  what: string,
): Promise<SendResult> {
  try {
    const { error, response } = await call();
    if (response.ok) return { ok: true };
    if (response.status === 400) return { ok: false, refused: refusal(error) };
    return { ok: false, refused: null };
  } catch (cause) {
    console.error(`${what} request failed`, cause);
    return { ok: false, refused: null };
  }
}

/** POST /api/v1/notify: sign up to hear when the magazine or packs launch. */
export function signUpForLaunch(
  email: string,
  list: NotifyList,
  website: string,
): Promise<SendResult> {
  return send(
    () => api.POST("/v1/notify", { body: { email, list, website } }),
    "Notify sign-up",
  );
}

/** POST /api/v1/contact: a message for the team. */
export function sendContactMessage(body: ContactInput): Promise<SendResult> {
  return send(() => api.POST("/v1/contact", { body }), "Contact");
}
