import { Link } from "wouter";
import { PageHero } from "@/components/PageHero";
import { useDocumentTitle } from "@/lib/document-title";
import { ApplicationForm } from "./ApplicationForm";
import { PAGE_TITLES } from "@/lib/pages.gen";

export function ApplicationPage() {
  useDocumentTitle(PAGE_TITLES["/application"]);
  return (
    <>
      <PageHero
        title="Contributor Application"
        lead={
          <>
            Applying takes about 15 minutes. Not sure which role fits?{" "}
            <Link href="/contributors" className="inverse-link">
              Compare the roles
            </Link>
            .
          </>
        }
      />
      <div className="section">
        <div className="container narrow">
          <ApplicationForm />
        </div>
      </div>
    </>
  );
}
