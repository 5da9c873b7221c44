// Editing a live piece keeps it live (issue 30). A writer fixing a typo in a
// published piece, and the content director editing it after, press the
// editor's first button ("Update"): the public page answers 200 throughout and
// shows the new title at once. With review required (a second app started by
// scripts/e2e.sh with REVIEW_REQUIRED), the writer's change waits for review
// while the old title stays live, until the director approves it.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { appNamed } from "./apps";
import { addStaff, signIn, tag, toast } from "./staff-support";

const REVIEW_APP = appNamed("review");
const REVIEW_BASE_URL = REVIEW_APP.url;

function row(page: Page, title: string) {
  return page
    .getByRole("table", { name: /Articles \(\d+\)/ })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: title }) });
}

/** The title a reader sees at `path` (following a renamed piece's redirect). */
async function readerSees(
  browser: Browser,
  baseURL: string | undefined,
  path: string,
) {
  const reader = await (await browser.newContext({ baseURL })).newPage();
  const response = await reader.goto(path);
  expect(response?.status(), `the public page ${path}`).toBe(200);
  const heading = await reader.getByRole("heading", { level: 1 }).innerText();
  await reader.context().close();
  return heading;
}

/** The director publishes a piece on `writer`'s behalf; returns its public path. */
async function publishFor(director: Page, writer: string, title: string) {
  await director.getByRole("button", { name: "New Article" }).click();
  const editor = director.getByRole("region", { name: "New Article" });
  await editor.getByLabel("Writer").selectOption({ label: writer });
  await editor.getByLabel("Title", { exact: true }).fill(title);
  await editor
    .getByLabel("Content", { exact: true })
    .fill("Most of us first vote at eighteen.");
  await editor.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(
    toast(director, "Article published successfully!"),
  ).toBeVisible();
  const href = await row(director, title)
    .getByRole("link", { name: title })
    .getAttribute("href");
  expect(href).toMatch(/^\/article\/[\w-]+$/);
  return href ?? "";
}

test("without review: a writer's and the director's edits of a live piece go live at once", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const t = tag();
  const writerName = `Wren ${t}`;
  const writerKey = addStaff(writerName, "writer");
  const directorKey = addStaff(`Dana ${t}`, "content-director");
  const writer = await (await browser.newContext()).newPage();
  const director = await (await browser.newContext()).newPage();
  await signIn(director, directorKey, "/dashboard/content-director");
  await signIn(writer, writerKey, "/dashboard/writer");

  const title = `Voting at sixten ${t}`;
  const path = await publishFor(director, writerName, title);
  expect(await readerSees(browser, baseURL, path)).toBe(title);

  // The writer fixes the typo: "Update" is the first action, unpublishing a separate one.
  await writer.reload();
  await row(writer, title)
    .getByRole("button", { name: `Edit “${title}”` })
    .click();
  const editor = writer.getByRole("region", { name: "Edit Article" });
  const actions = editor.locator(".editor-actions").getByRole("button");
  await expect(actions.first()).toHaveText("Update");
  await expect(
    editor.getByRole("button", { name: "Unpublish — save as draft" }),
  ).toBeVisible();
  await expect(
    editor.getByRole("button", { name: "Save as Draft", exact: true }),
  ).toHaveCount(0);
  const fixed = `Voting at sixteen ${t}`;
  await editor.getByLabel("Title", { exact: true }).fill(fixed);
  await editor.getByRole("button", { name: "Update" }).click();
  await expect(
    toast(writer, "Article updated — the change is live"),
  ).toBeVisible();
  expect(await readerSees(browser, baseURL, path)).toBe(fixed);

  // The director edits it again, pressing Enter in the title: still live, never unpublished.
  await director.reload();
  await row(director, fixed)
    .getByRole("button", { name: `Edit “${fixed}”` })
    .click();
  const directorEditor = director.getByRole("region", { name: "Edit Article" });
  const again = `Voting at sixteen, revisited ${t}`;
  await directorEditor.getByLabel("Title", { exact: true }).fill(again);
  await directorEditor.getByLabel("Title", { exact: true }).press("Enter");
  await expect(
    toast(director, "Article updated — the change is live"),
  ).toBeVisible();
  expect(await readerSees(browser, baseURL, path)).toBe(again);
  await expect(
    row(director, again).getByText("Published", { exact: true }),
  ).toBeVisible();
});

test("with review required: a writer's change waits while the live version stays, then goes live on approval", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const t = tag();
  const writerName = `Rhea ${t}`;
  const writerKey = addStaff(writerName, "writer", REVIEW_APP);
  const directorKey = addStaff(`Dario ${t}`, "content-director", REVIEW_APP);
  const context = () => browser.newContext({ baseURL: REVIEW_BASE_URL });
  const writer = await (await context()).newPage();
  const director = await (await context()).newPage();
  await signIn(director, directorKey, "/dashboard/content-director");
  await signIn(writer, writerKey, "/dashboard/writer");

  const title = `Who decides at the UN ${t}`;
  const path = await publishFor(director, writerName, title);

  await writer.reload();
  await row(writer, title)
    .getByRole("button", { name: `Edit “${title}”` })
    .click();
  const editor = writer.getByRole("region", { name: "Edit Article" });
  const actions = editor.locator(".editor-actions").getByRole("button");
  await expect(actions.first()).toHaveText("Submit change for review");
  const changed = `Who really decides at the UN ${t}`;
  await editor.getByLabel("Title", { exact: true }).fill(changed);
  await editor
    .getByRole("button", { name: "Submit change for review" })
    .click();
  await expect(
    toast(
      writer,
      "Change submitted for review — the live version stays up until it is approved",
    ),
  ).toBeVisible();
  expect(await readerSees(browser, REVIEW_BASE_URL, path)).toBe(title);

  // Reopened, the editor continues the waiting change and says so.
  await writer.reload();
  await row(writer, title)
    .getByRole("button", { name: `Edit “${title}”` })
    .click();
  await expect(editor.getByLabel("Title", { exact: true })).toHaveValue(
    changed,
  );
  await expect(
    editor.getByText(/Your change is waiting for review/),
  ).toBeVisible();

  // The director approves it from the review queue: live at once.
  await director.reload();
  const item = director
    .getByRole("region", { name: /^Review queue/ })
    .getByRole("listitem")
    .filter({ hasText: `Change to a live piece: ${title}` });
  await expect(item).toContainText("Changes: Title");
  await item
    .getByRole("button", { name: `Approve the change to “${title}”` })
    .click();
  await expect(
    toast(director, "Change approved — it is live now"),
  ).toBeVisible();
  expect(await readerSees(browser, REVIEW_BASE_URL, path)).toBe(changed);
});
