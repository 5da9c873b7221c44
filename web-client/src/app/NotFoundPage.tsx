import { ButtonLink } from "@/components/Button";
import { LostReaderHelp } from "@/features/content";
import { useDocumentTitle } from "@/lib/document-title";

export function NotFoundPage() {
  useDocumentTitle("Page not found");
  return (
    <div className="section">
      <div className="container center-block">
        <p className="big-number" aria-hidden="true">
          404
        </p>
        <h1 className="page-title">Oops! Page not found</h1>
        <p>The page you are looking for does not exist or has moved.</p>
        <ButtonLink href="/">Return to Home</ButtonLink>
      </div>
      <div className="container">
        <LostReaderHelp />
      </div>
    </div>
  );
}
