// The newsroom in the browser: a writer asks for review, the content director
// sends it back with a note, the writer sees the note and resubmits, the
// director approves it for a few seconds later and it appears on the home
// page; the editor keeps unsaved text across a reload.
import { expect, test, type Page } from "@playwright/test";
import { addStaff, signIn, tag, toast } from "./staff-support";
import { open } from "./support";

/** A time `seconds` from now as a `datetime-local` value in the page's time zone. */
async function localTimeIn(page: Page, seconds: number): Promise<string> {
  return page.evaluate((s) => {
    const at = new Date(Date.now() + s * 1000);
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  }, seconds);
}

test("review: submitted, sent back with a note, resubmitted, scheduled, then on the home page", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const t = tag();
  const title = `Newsroom ${t}: school strikes`;
  const note = `Please cite the source of the 40% figure (${t}).`;
  const writerKey = addStaff(`Wren ${t}`, "writer");
  const directorKey = addStaff(`Dana ${t}`, "content-director");

  const writer = await (await browser.newContext()).newPage();
  const director = await (await browser.newContext()).newPage();
  await signIn(writer, writerKey, "/dashboard/writer");
  await signIn(director, directorKey, "/dashboard/content-director");

  // The writer writes a featured piece and asks for review.
  await writer.getByRole("button", { name: "New Article" }).click();
  await writer.getByLabel("Title", { exact: true }).fill(title);
  await writer
    .getByLabel("Content", { exact: true })
    .fill("Thousands walked out on Friday.");
  await writer.getByLabel("Featured article").check();
  await writer.getByRole("button", { name: "Ask for Review" }).click();
  await expect(toast(writer, "Submitted for review")).toBeVisible();
  const row = writer.getByRole("row", { name: new RegExp(title) });
  await expect(row.getByText("In review", { exact: true })).toBeVisible();
  // In review, the writer can withdraw it but not edit it.
  await expect(
    row.getByRole("button", { name: `Withdraw “${title}”` }),
  ).toBeVisible();
  await expect(
    row.getByRole("button", { name: `Edit “${title}”` }),
  ).toHaveCount(0);

  // The director finds it in the queue, reads it and sends it back with a note.
  await director.reload();
  const queue = director.getByRole("region", { name: /^Review queue/ });
  const item = queue.getByRole("listitem").filter({ hasText: title });
  await expect(item).toBeVisible();
  await expect(item).toContainText(`Wren ${t}`);
  await item.getByRole("button", { name: `Read “${title}”` }).click();
  await expect(item.getByText("Thousands walked out on Friday.")).toBeVisible();
  await item
    .getByRole("button", { name: `Request changes to “${title}”` })
    .click();
  await item.getByLabel("What should change?").fill(note);
  await item.getByRole("button", { name: "Send back to the writer" }).click();
  await expect(toast(director, "Changes requested")).toBeVisible();
  await expect(item).toHaveCount(0);

  // The writer sees the note on the dashboard and in the editor, and resubmits.
  await writer.reload();
  await expect(row.getByText(note)).toBeVisible();
  await expect(row.getByText("Draft", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: `Edit “${title}”` }).click();
  const editor = writer.getByRole("region", { name: "Edit Article" });
  await expect(editor.getByText(note)).toBeVisible();
  await editor
    .getByLabel("Content", { exact: true })
    .fill("Thousands walked out on Friday, 40% of them (school census).");
  await editor.getByRole("button", { name: "Ask for Review" }).click();
  await expect(toast(writer, "Submitted for review")).toBeVisible();
  await expect(row.getByText("In review", { exact: true })).toBeVisible();

  // The director approves it for a few seconds from now.
  await director.reload();
  await expect(item).toBeVisible();
  await item
    .getByRole("button", { name: `Approve for later “${title}”` })
    .click();
  await item
    .getByLabel("Publish at (your time)")
    .fill(await localTimeIn(director, 6));
  await item.getByRole("button", { name: "Approve and schedule" }).click();
  await expect(toast(director, "Approved and scheduled")).toBeVisible();
  const directorRow = director.getByRole("row", { name: new RegExp(title) });
  await expect(
    directorRow.getByText("Scheduled", { exact: true }),
  ).toBeVisible();

  // Not public yet; then on the home page, without anyone doing anything.
  const reader = await (await browser.newContext()).newPage();
  await open(reader, "/");
  await expect(reader.getByRole("heading", { name: title })).toHaveCount(0);
  await expect(async () => {
    await reader.reload();
    await expect(
      reader
        .getByRole("region", { name: "From Our Writers" })
        .getByRole("heading", { name: title }),
    ).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await writer.reload();
  await expect(row.getByText("Published", { exact: true })).toBeVisible();

  // The director reads who moved it, from which stage to which.
  await director.reload();
  await directorRow.getByRole("button", { name: `Log of “${title}”` }).click();
  const log = director.getByRole("region", { name: `Log of “${title}”` });
  await expect(log.getByRole("listitem")).toHaveText([
    new RegExp(`Wren ${t} created it \\(Draft\\)`),
    new RegExp(`Wren ${t} submitted it for review \\(Draft → In review\\)`),
    new RegExp(`Dana ${t} requested changes \\(In review → Draft\\)`),
    new RegExp(`Wren ${t} submitted it for review`),
    new RegExp(`Dana ${t} approved it \\(In review → Scheduled\\) for `),
    /The schedule published it at its scheduled time \(Scheduled → Published\)/,
  ]);
  await expect(log.getByText(note)).toBeVisible();
});

test("no lost work: a save over someone else's newer version, and a save after the session ended", async ({
  browser,
}) => {
  const t = tag();
  const title = `Shared ${t}`;
  const writerKey = addStaff(`Willa ${t}`, "writer");
  const directorKey = addStaff(`Dev ${t}`, "content-director");
  const writer = await (await browser.newContext()).newPage();
  const director = await (await browser.newContext()).newPage();
  await signIn(writer, writerKey, "/dashboard/writer");
  await signIn(director, directorKey, "/dashboard/content-director");
  await writer.getByRole("button", { name: "New Article" }).click();
  await writer.getByLabel("Title", { exact: true }).fill(title);
  await writer.getByLabel("Content", { exact: true }).fill("The first text.");
  await writer.getByRole("button", { name: "Save as Draft" }).click();
  await expect(toast(writer, "Article created successfully!")).toBeVisible();

  // Both open it; the director saves first.
  const row = (page: Page) =>
    page.getByRole("row", { name: new RegExp(title) });
  await row(writer)
    .getByRole("button", { name: `Edit “${title}”` })
    .click();
  await director.reload();
  await row(director)
    .getByRole("button", { name: `Edit “${title}”` })
    .click();
  await director
    .getByLabel("Content", { exact: true })
    .fill("The director's text.");
  await director
    .getByLabel("Subtitle (optional)")
    .fill("The director's subtitle");
  await director.getByRole("button", { name: "Save as Draft" }).click();
  await expect(toast(director, "Article updated successfully!")).toBeVisible();

  // The writer's save is refused, naming who saved; nothing was overwritten.
  await writer
    .getByLabel("Content", { exact: true })
    .fill("The writer's text.");
  const saveButton = writer.getByRole("button", { name: "Save as Draft" });
  await saveButton.click();
  const conflict = writer
    .getByRole("alert")
    .filter({ hasText: "Nothing was overwritten" });
  await expect(conflict).toContainText(`Dev ${t} saved this article`);
  // Seen where the eye is: focused, right below the button that was pressed.
  await expect(conflict).toBeFocused();
  const button = await saveButton.boundingBox();
  const notice = await conflict.boundingBox();
  expect(button && notice).toBeTruthy();
  if (button && notice) {
    expect(notice.y - (button.y + button.height)).toBeGreaterThanOrEqual(0);
    expect(notice.y - (button.y + button.height)).toBeLessThan(120);
  }
  await conflict.getByRole("button", { name: "See their version" }).click();
  await expect(conflict.getByText("The director's text.")).toBeVisible();
  // Every field that differs, the subtitle included.
  await expect(conflict.getByText("The director's subtitle")).toBeVisible();
  await conflict.getByRole("button", { name: "Save mine over it" }).click();
  await expect(toast(writer, "Article updated successfully!")).toBeVisible();

  // The session ends while writing: the text stays, and saves after signing in again.
  await row(writer)
    .getByRole("button", { name: `Edit “${title}”` })
    .click();
  await writer
    .getByLabel("Content", { exact: true })
    .fill("Written while the session ended.");
  await writer.context().clearCookies();
  // A request made behind the text finds the session over (the preview): the
  // writer stays with their text rather than being sent to sign in.
  await writer.getByRole("button", { name: "Preview", exact: true }).click();
  await expect(writer.getByLabel("Preview")).toContainText("Preview failed");
  await writer.getByRole("button", { name: "Write", exact: true }).click();
  await expect(writer).toHaveURL(/\/dashboard\/writer\/articles\//);
  await writer.getByRole("button", { name: "Save as Draft" }).click();
  await expect(
    writer.getByText(
      "Your session has ended. Sign in again to save: your text is kept.",
    ),
  ).toBeVisible();
  await writer.getByLabel("Access key").fill(writerKey);
  await writer.getByRole("button", { name: "Sign in and save" }).click();
  await expect(toast(writer, "Article updated successfully!")).toBeVisible();
  await director.reload();
  await row(director)
    .getByRole("button", { name: `Edit “${title}”` })
    .click();
  await expect(director.getByLabel("Content", { exact: true })).toHaveValue(
    "Written while the session ended.",
  );
});

test("the editor keeps unsaved text across a reload and offers it back", async ({
  page,
}) => {
  const t = tag();
  await signIn(page, addStaff(`Rita ${t}`, "writer"), "/dashboard/writer");
  await page.getByRole("button", { name: "New Article" }).click();
  await page.getByLabel("Title", { exact: true }).fill(`Unsaved ${t}`);
  await page
    .getByLabel("Content", { exact: true })
    .fill("Words that must not be lost.");
  // Leaving with unsaved changes asks first.
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  expect(asked).toEqual(["beforeunload"]);
  await expect(page.getByRole("button", { name: "New Article" })).toBeVisible();
  await page.getByRole("button", { name: "New Article" }).click();
  await expect(
    page.getByText(
      /^You have unsaved changes from \d{1,2}:\d{2} [AP]M — restore\?$/,
    ),
  ).toBeVisible();
  await page.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue(
    `Unsaved ${t}`,
  );
  await expect(page.getByLabel("Content", { exact: true })).toHaveValue(
    "Words that must not be lost.",
  );
  // Saved, the copy is gone: a new article starts empty.
  await page.getByRole("button", { name: "Save as Draft" }).click();
  await expect(toast(page, "Article created successfully!")).toBeVisible();
  await page.getByRole("button", { name: "New Article" }).click();
  await expect(page.getByText(/You have unsaved changes/)).toHaveCount(0);
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("");
});
