import { useEffect } from "react";
import { useLocation } from "wouter";
import { ButtonLink } from "@/components/Button";
import { useDocumentTitle } from "@/lib/document-title";

export function NotFoundPage() {
  const [pathname] = useLocation();
  useDocumentTitle("Page not found");

  useEffect(() => {
    console.warn(
      "404 Error: User attempted to access non-existent route:",
      pathname,
    );
  }, [pathname]);

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
    </div>
  );
}
