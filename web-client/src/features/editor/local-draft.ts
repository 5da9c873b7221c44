import type { ArticleForm } from "@/features/editor/article-form";

/**
 * The editor's unsaved text, kept in the browser so that a crash, a reload or
 * an ended session never loses it: written as the writer types, removed once
 * the article is saved (or the writer discards it), offered back when the
 * same article is opened again.
 */
export interface LocalDraft {
  form: ArticleForm;
  /** When it was last written (ms since the epoch). */
  at: number;
}

const PREFIX = "agora-draft:";

/** The storage key of a staff member's draft of an article (`null`: a new one). */
export function draftKey(userId: string, articleId: string | null): string {
  return `${PREFIX}${userId}:${articleId ?? "new"}`;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage refused (a locked-down browser): nothing is kept.
    return null;
  }
}

export function readDraft(key: string): LocalDraft | null {
  const raw = storage()?.getItem(key);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<LocalDraft>;
    if (typeof parsed.at !== "number" || typeof parsed.form !== "object") {
      return null;
    }
    return parsed as LocalDraft;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, form: ArticleForm, at = Date.now()) {
  try {
    storage()?.setItem(key, JSON.stringify({ form, at }));
  } catch {
    // Full or refused: the editor goes on without a local copy.
  }
}

export function clearDraft(key: string) {
  storage()?.removeItem(key);
}

/** Whether two states of the form hold the same text and choices. */
export function sameForm(a: ArticleForm, b: ArticleForm): boolean {
  return (Object.keys(a) as (keyof ArticleForm)[]).every((k) => a[k] === b[k]);
}

/** A draft worth offering back: one that differs from what is saved. */
export function draftToOffer(
  key: string,
  saved: ArticleForm,
): LocalDraft | null {
  const draft = readDraft(key);
  return draft && !sameForm(draft.form, saved) ? draft : null;
}
