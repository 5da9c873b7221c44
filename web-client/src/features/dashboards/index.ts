// Public face of the dashboards feature. src/app loads it lazily (dashboards
// are rendered in the browser only) and hands it the editor.
import "./dashboards.css";

export { DashboardGate } from "./components/DashboardGate";
export type { EditorComponent, EditorProps } from "./types";
export type { PublicCopies } from "./api/changes";
