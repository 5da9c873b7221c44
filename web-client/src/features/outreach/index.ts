// Public face of the outreach feature, loaded lazily by src/app (its styles
// are imported eagerly from ./styles).

export { AboutPage } from "./components/AboutPage";
export { ApplicationPage } from "./components/ApplicationPage";
export { ApplicationSuccessPage } from "./components/ApplicationSuccessPage";
export { CheckEmailPage } from "./components/CheckEmailPage";
export { ContactPage } from "./components/ContactPage";
export { ContributorsPage } from "./components/ContributorsPage";
export { EmailLandingPage } from "./components/EmailLandingPage";
export { MagazineIssuePage } from "./components/MagazineIssuePage";
export { MagazinePage } from "./components/MagazinePage";
export { PacksPage } from "./components/PacksPage";
export { SignupPage } from "./components/SignupPage";
