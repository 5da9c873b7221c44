// Public face of the identity feature, used by src/app. Its pages are in
// ./pages, loaded on demand (outside the main bundle).
export { AuthProvider } from "./components/AuthProvider";
