// Staff helpers shared by the staff and admin specs: members are added with
// the server's CLI, against the database of the app under test.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, type Locator, type Page } from "@playwright/test";
import { currentApp, type App } from "./apps";
import { open } from "./support";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** A short random tag that keeps names and titles unique across runs. */
export function tag(): string {
  return Math.random().toString(36).slice(2, 8);
}

/**
 * Adds a staff member with the server's CLI, against the database and data
 * folder (its key secret lives there) of the app the test runs against or of
 * `app`, and returns their key, which `agora staff add` prints alone on its
 * last line.
 */
export function addStaff(
  name: string,
  role: string,
  app: App = currentApp(),
): string {
  const bin = process.env.AGORA_BIN;
  if (!bin) throw new Error("AGORA_BIN is not set: run through scripts/e2e.sh");
  const out = execFileSync(
    bin,
    ["staff", "add", "--name", name, "--role", role],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: app.databaseUrl,
        DATA_DIR: app.dataDir,
      },
      encoding: "utf8",
    },
  );
  const key = out.trim().split("\n").pop()?.trim();
  if (!key) throw new Error(`no key in the output of staff add:\n${out}`);
  return key;
}

/** A PDF of about `bytes` bytes; `marker` makes its content (which the server hashes) unique. */
export function pdf(bytes: number, marker = ""): Buffer {
  const body = [
    "%PDF-1.4",
    "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
    "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
    "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj",
    "trailer << /Root 1 0 R >>",
    `% ${marker}`,
  ].join("\n");
  const padding = Math.max(0, bytes - body.length - 8);
  return Buffer.concat([
    Buffer.from(body + "\n%"),
    Buffer.alloc(padding, "x"),
    Buffer.from("\n%%EOF\n"),
  ]);
}

/** Uploads a magazine PDF titled `title` on the admin dashboard and waits for the toast. */
export async function uploadMagazine(page: Page, title: string, bytes = 4096) {
  await page.getByLabel("Magazine PDF").setInputFiles({
    name: `${title}.pdf`,
    mimeType: "application/pdf",
    buffer: pdf(bytes, title),
  });
  await expect(toast(page, "Magazine uploaded successfully!")).toBeVisible();
}

export function toast(page: Page, text: string): Locator {
  return page.locator(".toasts").getByText(text, { exact: true });
}

export async function signIn(page: Page, key: string, dashboard: string) {
  await open(page, "/key-login");
  await page.getByLabel("Access Key").fill(key);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(toast(page, "Login successful!")).toBeVisible();
  await expect(toast(page, "Welcome back to your dashboard.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${dashboard}$`));
}
