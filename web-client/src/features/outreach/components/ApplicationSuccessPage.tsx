import { ButtonLink } from "@/components/Button";
import { CheckIcon } from "@/components/icons";
import { useDocumentTitle } from "@/lib/document-title";
import { PAGE_TITLES } from "@/lib/pages.gen";

export function ApplicationSuccessPage() {
  useDocumentTitle(PAGE_TITLES["/application/success"]);
  return (
    <div className="section">
      <div className="container narrow center-block">
        <span className="success-mark" aria-hidden="true">
          <CheckIcon />
        </span>
        <h1 className="page-title">We&apos;ve Got Your Application!</h1>
        <p>
          Thank you for your interest. We&apos;ll review your application and
          contact you soon, usually within two weeks. Keep an eye on your inbox
          for your skills assessment.
        </p>
        <ButtonLink href="/" size="lg">
          Back to Home
        </ButtonLink>
      </div>
    </div>
  );
}
