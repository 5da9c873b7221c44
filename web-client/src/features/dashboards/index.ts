// Public face of the dashboards feature, used by src/app.
export { DashboardGate, isDashboardRole } from "./components/DashboardGate";
export type { DashboardRole } from "./components/DashboardGate";
