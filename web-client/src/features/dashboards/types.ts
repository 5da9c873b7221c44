import type { ComponentType } from "react";
import type { components } from "@/api/schema";

// Aliases of the generated contract types; nothing here is written by hand.
export type StaffArticle = components["schemas"]["StaffArticle"];
export type Writer = components["schemas"]["Writer"];
export type Notices = components["schemas"]["StaffNotices"];
export type ArticleEvent = components["schemas"]["ArticleEvent"];

/** What the article dashboards need of an editor; src/app supplies the
 * editor feature's (features never import each other). */
export interface EditorProps {
  article: StaffArticle | null;
  writers?: readonly Writer[];
  onSaved: (article: StaffArticle) => void;
  onCancel: () => void;
}

export type EditorComponent = ComponentType<EditorProps>;
export type StaffRole = components["schemas"]["Role"];
export type ViewStats = components["schemas"]["ViewStats"];
export type Magazine = components["schemas"]["Magazine"];
export type StaffRecord = components["schemas"]["StaffRecord"];
export type IssuedKey = components["schemas"]["IssuedKey"];
