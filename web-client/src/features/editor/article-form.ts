import type { Problem } from "@/lib/problems";
import type {
  ArticleInput,
  Category,
  StaffArticle,
  Status,
} from "@/features/editor/types";

export const DEFAULT_CATEGORY: Category = "Youth Activism";

/** The editor's fields as typed, before trimming. */
export interface ArticleForm {
  title: string;
  subtitle: string;
  content: string;
  category: Category;
  coverImage: string;
  featured: boolean;
  authorId: string;
}

export type FieldErrors = Partial<
  Record<"title" | "content" | "writer", string>
>;

export const MESSAGES = {
  title: "Article title is required",
  content: "Article content is required",
  writer: "Please select a writer for the article",
} as const;

export function formFromArticle(article: StaffArticle | null): ArticleForm {
  return {
    title: article?.title ?? "",
    subtitle: article?.subtitle ?? "",
    content: article?.content ?? "",
    category: article?.category ?? DEFAULT_CATEGORY,
    coverImage: article?.cover_image ?? "",
    featured: article?.featured ?? false,
    authorId: article?.author_id ?? "",
  };
}

/**
 * The form a writer under review rules edits: their change waiting for review
 * when there is one (a second edit continues it), the live text otherwise.
 */
export function formForProposer(article: StaffArticle | null): ArticleForm {
  const change = article?.pending_change;
  if (!article || !change) return formFromArticle(article);
  return {
    ...formFromArticle(article),
    title: change.title,
    subtitle: change.subtitle ?? "",
    content: change.content,
    category: change.category,
    coverImage: change.cover_image ?? "",
    featured: change.featured,
  };
}

/** Spec §5 "Article editors", in the order the fields appear. */
export function validateForm(
  form: ArticleForm,
  chooseWriter: boolean,
): FieldErrors {
  const errors: FieldErrors = {};
  if (chooseWriter && !form.authorId) errors.writer = MESSAGES.writer;
  if (!form.title.trim()) errors.title = MESSAGES.title;
  if (!form.content.trim()) errors.content = MESSAGES.content;
  return errors;
}

/**
 * The editor's problem: each field at fault with its own message (in the
 * order of the form), the first one said in the toast; `null` when none.
 */
export function editorProblem(errors: FieldErrors): Problem | null {
  const fields = (["writer", "title", "content"] as const).filter(
    (field) => errors[field],
  );
  const first = fields[0];
  if (first === undefined) return null;
  return {
    title: "Error",
    message: errors[first] ?? "",
    fields: [...fields],
    messages: { ...errors },
  };
}

/** The request body. Empty optional texts are left out, which the API stores
 * as no value (and clears on an update). */
export function toInput(
  form: ArticleForm,
  status: Status,
  chooseWriter: boolean,
): ArticleInput {
  const subtitle = form.subtitle.trim();
  const coverImage = form.coverImage.trim();
  return {
    title: form.title.trim(),
    content: form.content.trim(),
    category: form.category,
    featured: form.featured,
    status,
    ...(subtitle ? { subtitle } : {}),
    ...(coverImage ? { cover_image: coverImage } : {}),
    ...(chooseWriter && form.authorId ? { author_id: form.authorId } : {}),
  };
}

/** The field a server validation error (`code`) is about. */
export function fieldOfCode(code: string): keyof FieldErrors | null {
  switch (code) {
    case "title_required":
      return "title";
    case "content_required":
      return "content";
    case "writer_required":
    case "invalid_writer":
      return "writer";
    default:
      return null;
  }
}
