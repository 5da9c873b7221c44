// The identity feature's pages, loaded on demand by src/app/routes.tsx: staff
// sign-in and the forms' code it brings stay out of what readers download.
export { KeyLoginPage } from "./components/KeyLoginPage";
