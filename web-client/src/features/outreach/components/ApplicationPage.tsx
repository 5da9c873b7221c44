import { Link } from "wouter";
import { PageHero } from "@/components/PageHero";
import { useDocumentTitle } from "@/lib/document-title";

// Static outline of the application; the interactive form is a later task.
const SECTIONS = [
  {
    title: "Personal Information",
    text: "Your full name, age (14 or older), country, email, time zone, weekly availability (at least 1 hour) and English level (B2, C1, C2 or Native).",
  },
  {
    title: "Role Application",
    text: "The roles you are applying for, how you heard about us and any previous experience.",
  },
  {
    title: "Documents",
    text: "An optional CV, plus a portfolio, writing samples or research samples where your roles ask for them (.pdf, .doc or .docx, up to 10MB, or a link).",
  },
  {
    title: "Tell Us About Yourself",
    text: "Why you want to join, what you would like to contribute, and anything else we should know.",
  },
];

export function ApplicationPage() {
  useDocumentTitle("Contributor Application");
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
          <ol className="form-outline">
            {SECTIONS.map((section, index) => (
              <li key={section.title} className="form-section">
                <h2 className="form-section-title">
                  <span className="step-number" aria-hidden="true">
                    {index + 1}
                  </span>
                  {section.title}
                </h2>
                <p>{section.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </>
  );
}
