import { defineConfig, devices } from "@playwright/test";

// End-to-end tests against the real app (see scripts/e2e.sh, which starts it
// with a fresh database and the demo articles and sets BASE_URL and AGORA_PID).
// The browser is the system Chromium; Playwright never downloads one here.
const baseURL = process.env.BASE_URL;
if (!baseURL) {
  throw new Error(
    "BASE_URL is not set: run the suite through scripts/e2e.sh (make test-e2e)",
  );
}

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  fullyParallel: false,
  forbidOnly: true,
  // A test that fails and then passes is flaky, and a flaky test fails the run: the retry
  // is there to keep a trace of the first failure (test-results/), never to turn it green.
  retries: 1,
  failOnFlakyTests: true,
  workers: 2,
  reporter: "list",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    locale: "en-US",
    // A reader far from UTC: dates are rendered in UTC on the server and
    // switch to the reader's zone after hydration, without a mismatch.
    timezoneId: "America/New_York",
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    {
      name: "desktop",
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
      ],
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // Every public form posted as plain HTML, on the commonest phone, scripts off.
      name: "no-js",
      testMatch: /no-js-forms\.spec\.ts/,
      use: {
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        javaScriptEnabled: false,
      },
    },
    {
      name: "mobile",
      testMatch: /mobile-menu\.spec\.ts/,
      use: { ...devices["Pixel 7"] },
    },
    {
      // Publishes and deletes articles, so it runs after the specs that count the demo ones.
      name: "staff",
      testMatch:
        /(staff|admin|layout|newsroom|live-edits|cards|views|images)\.spec\.ts/,
      dependencies: ["desktop", "mobile", "no-js"],
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // Kills the rendering sidecar, so it runs alone after everything else.
      name: "sidecar",
      testMatch: /sidecar\.spec\.ts/,
      dependencies: ["desktop", "mobile", "no-js", "staff"],
      use: { viewport: { width: 1280, height: 800 } },
    },
  ],
});
