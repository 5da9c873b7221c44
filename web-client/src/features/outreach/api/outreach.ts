import type { components, paths } from "@/api/schema";
import { api } from "@/lib/api-client";
import type { ToastText } from "@/features/outreach/validation";

type NotifyList = components["schemas"]["NotifyList"];
type ContactInput = components["schemas"]["ContactInput"];
type RegistrationInput = components["schemas"]["RegistrationInput"];
type Accepted = components["schemas"]["Accepted"];
type ApplicationAccepted = components["schemas"]["ApplicationAccepted"];
type ApplicationParts =
  paths["/v1/applications"]["post"]["requestBody"]["content"]["multipart/form-data"];

/** The file parts of an application (`cv_file`, `portfolio_file`, ...). */
export type UploadPart = Extract<keyof ApplicationParts, `${string}_file`>;
/**
 * The text parts of an application as the form sends them; `roles` is sent as
 * one part per role. They are the contract's, except that a choice may still be
 * unmade or unknown: the server answers that in the product's words.
 */
export type ApplicationText = Omit<
  ApplicationParts,
  UploadPart | "english_level" | "roles"
> & {
  english_level: ApplicationParts["english_level"] | "";
  roles: string[];
};
export type ApplicationUploads = Partial<Record<UploadPart, Blob>>;

export type SendResult<T = unknown> =
  | { ok: true; data: T }
  /** The server refused the request (4xx) with its own wording. */
  | { ok: false; refused: ToastText }
  /** Network failure or a server error. */
  | { ok: false; refused: null };

/** The `title`/`message` of an error body, when there is a message. */
function refusal(error: unknown): ToastText | null {
  if (typeof error !== "object" || error === null) return null;
  const { title, message, code } = error as Record<string, unknown>;
  if (typeof message !== "string" || message === "") return null;
  return {
    title: typeof title === "string" ? title : "",
    message,
    ...(typeof code === "string" ? { code } : {}),
  };
}

async function send<T>(
  call: () => Promise<{ data?: T; error?: unknown; response: Response }>,
  what: string,
): Promise<SendResult<T>> {
  try {
    const { data, error, response } = await call();
    if (response.ok) return { ok: true, data: data as T };
    // 400 (invalid), 413 (file too large), 429 (too many) carry the product's wording.
    if (response.status >= 400 && response.status < 500) {
      return { ok: false, refused: refusal(error) };
    }
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
): Promise<SendResult<Accepted>> {
  return send(
    () => api.POST("/v1/notify", { body: { email, list, website } }),
    "Notify sign-up",
  );
}

/** POST /api/v1/contact: a message for the team. */
export function sendContactMessage(
  body: ContactInput,
): Promise<SendResult<Accepted>> {
  return send(() => api.POST("/v1/contact", { body }), "Contact");
}

/** POST /api/v1/accounts: register a reader account. */
export function register(
  body: RegistrationInput,
): Promise<SendResult<Accepted>> {
  return send(() => api.POST("/v1/accounts", { body }), "Registration");
}

/**
 * The multipart body of an application: one part per role, the files as they
 * are. Empty answers are left out; the server reads a missing part as empty.
 */
export function applicationFormData(
  text: ApplicationText,
  uploads: ApplicationUploads,
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(text)) {
    for (const part of Array.isArray(value) ? value : [value]) {
      if (typeof part === "string" && part !== "") form.append(name, part);
    }
  }
  for (const [name, file] of Object.entries(uploads)) {
    if (file) form.append(name, file);
  }
  return form;
}

/** POST /api/v1/applications: a contributor application with its documents. */
export function submitApplication(
  text: ApplicationText,
  uploads: ApplicationUploads,
): Promise<SendResult<ApplicationAccepted>> {
  return send(
    () =>
      api.POST("/v1/applications", {
        // What the form sends (a choice may be unmade); the server judges it.
        body: text as ApplicationParts,
        // The contract types file parts as strings; the browser sends the Files.
        bodySerializer: (body) => applicationFormData(body, uploads),
      }),
    "Application",
  );
}
