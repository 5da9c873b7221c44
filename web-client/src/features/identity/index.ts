// Public face of the identity feature, used by src/app.
export { AuthProvider } from "./components/AuthProvider";
export { KeyLoginPage } from "./components/KeyLoginPage";
