// Public face of the editor feature, composed with the dashboards in src/app.
import "./editor.css";

export { ArticleEditor } from "./components/ArticleEditor";
export type { ArticleEditorProps } from "./types";
