// Public face of the readers feature (sign-in, password reset, the account
// page), loaded lazily by src/app (its styles are imported eagerly from
// ./styles).

export { AccountPage } from "./components/AccountPage";
export { ForgotPasswordPage } from "./components/ForgotPasswordPage";
export { ReaderLoginPage } from "./components/ReaderLoginPage";
export { ResetPasswordPage } from "./components/ResetPasswordPage";
export { SignInLinkPage } from "./components/SignInLinkPage";
