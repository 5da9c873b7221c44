// Staff helpers shared by the staff and admin specs: members are added with
// the server's CLI, against the database of the app under test.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, type Locator, type Page } from "@playwright/test";
import { open } from "./support";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** A short random tag that keeps names and titles unique across runs. */
export function tag(): string {
  return Math.random().toString(36).slice(2, 8);
}

/**
 * Adds a staff member with the server's CLI (against the app's database:
 * scripts/e2e.sh exports DATA_DIR and DATABASE_URL) and returns their key,
 * which `agora staff add` prints alone on its last line.
 */
export function addStaff(
  name: string,
  role: string,
  /** Another app's database and data folder (its key secret lives there). */
  app?: { databaseUrl: string; dataDir: string },
): string {
  const bin = process.env.AGORA_BIN;
  if (!bin) throw new Error("AGORA_BIN is not set: run through scripts/e2e.sh");
  const out = execFileSync(
    bin,
    ["staff", "add", "--name", name, "--role", role],
    {
      cwd: REPO_ROOT,
      env: app
        ? {
            ...process.env,
            DATABASE_URL: app.databaseUrl,
            DATA_DIR: app.dataDir,
          }
        : process.env,
      encoding: "utf8",
    },
  );
  const key = out.trim().split("\n").pop()?.trim();
  if (!key) throw new Error(`no key in the output of staff add:\n${out}`);
  return key;
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
