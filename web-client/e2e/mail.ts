// The emails the app under test wrote as files (no SMTP_URL: they land in
// its data folder's outbox): the tests follow the links in them as a reader would.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "@playwright/test";
import { currentApp } from "./apps";

function mailDir(): string {
  return join(currentApp().dataDir, "outbox");
}

/** Every message to `to`, oldest first, decoded from quoted-printable. */
export function messagesTo(to: string): string[] {
  let files: string[];
  try {
    files = readdirSync(mailDir());
  } catch {
    return [];
  }
  return files
    .map((f) => join(mailDir(), f))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
    .map((f) => readFileSync(f, "utf8"))
    .map(decodeBody)
    .filter((m) => m.includes(`To: ${to}`));
}

/**
 * A message with its body decoded when it was sent quoted-printable. The
 * headers, and a body sent as plain text, stay as they are: a token such as
 * `token=E8…` there is not an escape.
 */
function decodeBody(message: string): string {
  const end = message.search(/\r?\n\r?\n/);
  if (end < 0) return message;
  const head = message.slice(0, end);
  if (!/^content-transfer-encoding:\s*quoted-printable/im.test(head)) {
    return message;
  }
  const body = message
    .slice(end)
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
  return head + body;
}

/**
 * The path and query of the newest link to `path` in an email to `to`,
 * waiting for the email to arrive (`count`: how many such emails must have
 * arrived, for a second link of the same kind).
 */
export async function linkInEmail(
  to: string,
  path: string,
  count = 1,
): Promise<string> {
  const pattern = new RegExp(`https?://[^/\\s]+(${path}\\?token=[\\w-]+)`, "g");
  let links: string[] = [];
  await expect
    .poll(
      () => {
        links = messagesTo(to).flatMap((m) =>
          [...m.matchAll(pattern)].map((match) => match[1] ?? ""),
        );
        return links.length;
      },
      { timeout: 20_000, message: `an email to ${to} with ${path}` },
    )
    .toBeGreaterThanOrEqual(count);
  return links[links.length - 1] ?? "";
}
