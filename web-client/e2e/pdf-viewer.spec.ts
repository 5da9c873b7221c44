// A magazine PDF is served with a sandboxing Content-Security-Policy (its own
// scripts run with an opaque origin, not ours). Chromium's PDF viewer must
// still open it when a reader follows the link: a viewer the policy blocked
// would leave an error frame. The headless shell the rest of the suite runs in
// has no PDF viewer, so this spec runs in the full Chromium (the "viewer"
// project in playwright.config.ts).
import { expect, test } from "@playwright/test";
import { addStaff, signIn, tag, uploadMagazine } from "./staff-support";

test("a magazine opens in the browser's PDF viewer despite its sandbox", async ({
  page,
}) => {
  await signIn(
    page,
    addStaff(`Viewer Admin ${tag()}`, "admin"),
    "/dashboard/admin",
  );
  const issue = `Viewer ${tag()}`;
  await uploadMagazine(page, issue, 2048);

  const view = page
    .getByRole("table", { name: /Magazines \(\d+\)/ })
    .getByRole("link", { name: `View ${issue}` });
  const href = (await view.getAttribute("href")) ?? "";
  expect(href).toMatch(/\/media\/magazines\/.+\.pdf$/);
  const [tab] = await Promise.all([
    page.context().waitForEvent("page"),
    view.click(),
  ]);
  await expect.poll(() => tab.url()).toContain(href);
  await expect
    .poll(() => tab.frames().map((f) => f.url().split(":")[0]), {
      timeout: 10_000,
    })
    .toContain("chrome-extension");
  expect(tab.frames().map((f) => f.url())).not.toContainEqual(
    expect.stringMatching(/^chrome-error:/),
  );
});
