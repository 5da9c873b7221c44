import { ButtonLink } from "@/components/Button";
import { CheckIcon } from "@/components/icons";
import { useDocumentTitle } from "@/lib/document-title";
import { PAGE_TITLES } from "@/lib/pages.gen";

export const CHECK_EMAIL_PATH = "/signup/check-email";

/** Where signing up lands (with or without JavaScript): what happens next. */
export function CheckEmailPage() {
  useDocumentTitle(PAGE_TITLES[CHECK_EMAIL_PATH]);
  return (
    <div className="section">
      <div className="container narrow center-block">
        <span className="success-mark" aria-hidden="true">
          <CheckIcon />
        </span>
        <h1 className="page-title">Check Your Email</h1>
        <p>
          Please check your email and follow the link to confirm your account.
          The link works once.
        </p>
        <p>
          The emails you asked for start once you confirm. Nothing arrived after
          a few minutes? Look in your spam folder, or ask for a new link on the
          sign-in page.
        </p>
        <ButtonLink href="/login" size="lg">
          Go to sign in
        </ButtonLink>
      </div>
    </div>
  );
}
