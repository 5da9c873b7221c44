// The apps scripts/e2e.sh starts for the suite, each with its own database,
// data folder (uploads, emails written as files) and rendering sidecar. A
// project runs against one of them (its `metadata.app`), so the specs that
// publish and delete articles or kill the sidecar never change what another
// project's specs read, and the projects run in any order.
import { test } from "@playwright/test";

export const APP_NAMES = ["reader", "newsroom", "sidecar", "review"] as const;
export type AppName = (typeof APP_NAMES)[number];

export interface App {
  /** Where it listens, e.g. http://127.0.0.1:40123 */
  url: string;
  databaseUrl: string;
  dataDir: string;
  /** The app's process (its sidecar is a child of it). */
  pid: number;
}

function parse(): Record<AppName, App> {
  const raw = process.env.E2E_APPS;
  if (!raw) {
    throw new Error(
      "E2E_APPS is not set: run the suite through scripts/e2e.sh (make test-e2e)",
    );
  }
  const apps = JSON.parse(raw) as Partial<Record<AppName, App>>;
  for (const name of APP_NAMES) {
    if (!apps[name]?.url) throw new Error(`E2E_APPS has no app "${name}"`);
  }
  return apps as Record<AppName, App>;
}

let cached: Record<AppName, App> | undefined;

export function appNamed(name: AppName): App {
  cached ??= parse();
  return cached[name];
}

export function isAppName(name: unknown): name is AppName {
  return APP_NAMES.includes(name as AppName);
}

/** The app the running test's project is pointed at. */
export function currentApp(): App {
  const name = test.info().project.metadata.app as unknown;
  if (!isAppName(name)) {
    throw new Error(`project "${test.info().project.name}" names no app`);
  }
  return appNamed(name);
}
