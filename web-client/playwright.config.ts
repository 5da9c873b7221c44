import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { appNamed, type AppName } from "./e2e/apps";

// End-to-end tests against the real app: scripts/e2e.sh starts several (each
// with a fresh database and the demo articles, see e2e/apps.ts) and each
// project runs against its own, so no project depends on another's order.
// The browser is the system Chromium; Playwright never downloads one here.
const url = (app: AppName) => appNamed(app).url;

// Debian's chromium-headless-shell (the same engine, without the desktop
// browser's per-window work) runs the suite: a new browser context, which
// every test opens, costs it 0.18 CPU-seconds against 0.65 for the full
// browser, and a page load about half. The PDF viewer exists only in the full
// browser, so its spec runs there. Either is set with CHROME_PATH /
// CHROME_FULL_PATH; without the shell, the full browser runs everything.
const FULL_CHROME = process.env.CHROME_FULL_PATH ?? "/usr/bin/chromium";
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const CHROME =
  process.env.CHROME_PATH ??
  (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROME);
const chromeArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  fullyParallel: false,
  forbidOnly: true,
  // A test that fails and then passes is flaky, and a flaky test fails the run: the retry
  // is there to keep a trace of the first failure (test-results/), never to turn it green.
  retries: 1,
  failOnFlakyTests: true,
  // Three at a time on two cores: the browsers wait on the apps often enough that two
  // workers left part of the CPU idle.
  workers: 3,
  reporter: "list",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    locale: "en-US",
    // A reader far from UTC: dates are rendered in UTC on the server and
    // switch to the reader's zone after hydration, without a mismatch.
    timezoneId: "America/New_York",
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: CHROME, args: chromeArgs },
  },
  projects: [
    {
      name: "desktop",
      metadata: { app: "reader" },
      testIgnore: [
        /mobile-menu\.spec\.ts/,
        /sidecar\.spec\.ts/,
        /staff\.spec\.ts/,
        /admin\.spec\.ts/,
        /layout\.spec\.ts/,
        /newsroom\.spec\.ts/,
        /live-edits\.spec\.ts/,
        /cards\.spec\.ts/,
        /views\.spec\.ts/,
        /images\.spec\.ts/,
        /no-js-forms\.spec\.ts/,
        /pdf-viewer\.spec\.ts/,
        /authors\.spec\.ts/,
        /responses\.spec\.ts/,
      ],
      use: { baseURL: url("reader"), viewport: { width: 1280, height: 800 } },
    },
    {
      // Every public form posted as plain HTML, on the commonest phone, scripts off.
      name: "no-js",
      metadata: { app: "reader" },
      testMatch: /no-js-forms\.spec\.ts/,
      use: {
        baseURL: url("reader"),
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        javaScriptEnabled: false,
      },
    },
    {
      name: "mobile",
      metadata: { app: "reader" },
      testMatch: /mobile-menu\.spec\.ts/,
      use: { ...devices["Pixel 7"], baseURL: url("reader") },
    },
    {
      // Publishes and deletes articles, in an app of its own (the reader
      // specs count the demo ones).
      name: "staff",
      metadata: { app: "newsroom" },
      testMatch:
        /(staff|admin|layout|newsroom|live-edits|cards|views|images|authors|responses)\.spec\.ts/,
      use: { baseURL: url("newsroom"), viewport: { width: 1280, height: 800 } },
    },
    {
      // Chromium's PDF viewer opening a sandboxed magazine: the full browser.
      name: "viewer",
      metadata: { app: "newsroom" },
      testMatch: /pdf-viewer\.spec\.ts/,
      use: {
        baseURL: url("newsroom"),
        viewport: { width: 1280, height: 800 },
        launchOptions: { executablePath: FULL_CHROME, args: chromeArgs },
      },
    },
    {
      // Kills the rendering sidecar of an app of its own.
      name: "sidecar",
      metadata: { app: "sidecar" },
      testMatch: /sidecar\.spec\.ts/,
      use: { baseURL: url("sidecar"), viewport: { width: 1280, height: 800 } },
    },
  ],
});
