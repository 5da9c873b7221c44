import type { components } from "@/api/schema";

// Aliases of the generated contract types; nothing here is written by hand.
export type StaffArticle = components["schemas"]["StaffArticle"];
export type ArticleInput = components["schemas"]["ArticleInput"];
export type Writer = components["schemas"]["Writer"];
export type Category = components["schemas"]["Category"];
export type Status = components["schemas"]["Status"];
export type UploadedCover = components["schemas"]["UploadedCover"];
export type RevisionSummary = components["schemas"]["RevisionSummary"];
export type RevisionDiff = components["schemas"]["RevisionDiff"];
export type ConflictBody = components["schemas"]["ConflictBody"];

export interface ArticleEditorProps {
  /** The article to edit, or `null` for a new one. */
  article: StaffArticle | null;
  /** The content director's choice of author; writers write as themselves. */
  writers?: readonly Writer[];
  onSaved: (article: StaffArticle) => void;
  onCancel: () => void;
}
