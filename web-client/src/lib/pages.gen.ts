// Generated from the route table (app/src/public_pages.rs): do not edit;
// regenerate with `UPDATE_SAMPLES=1 cargo test -p agora --lib route_table`.

/** Each public page's title, as the server writes it before " | site name" (the
 * home page's comes after it). */
export const PAGE_TITLES = {
  "/": "Youth voices on global politics",
  "/articles": "Articles",
  "/magazine": "Magazine",
  "/educational-packs": "Educational Packs",
  "/about": "About Us",
  "/contributors": "Join as a Contributor",
  "/application": "Contributor Application",
  "/application/success": "Application Received",
  "/contact-us": "Contact Us",
  "/login": "Sign in",
  "/signup": "Join",
  "/signup/check-email": "Check your email",
  "/key-login": "Access Key Login",
  "/forgot-password": "Forgot your password?",
  "/account": "My account",
  "/email/sign-in": "Sign in with your link",
  "/reset-password": "Choose a new password",
} as const;

export type PublicPath = keyof typeof PAGE_TITLES;
