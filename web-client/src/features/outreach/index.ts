// Public face of the outreach feature, used by src/app.
import "./outreach.css";

export { AboutPage } from "./components/AboutPage";
export { ApplicationPage } from "./components/ApplicationPage";
export { ApplicationSuccessPage } from "./components/ApplicationSuccessPage";
export { ContactPage } from "./components/ContactPage";
export { ContributorsPage } from "./components/ContributorsPage";
export { MagazinePage } from "./components/MagazinePage";
export { PacksPage } from "./components/PacksPage";
export { SignupPage } from "./components/SignupPage";
