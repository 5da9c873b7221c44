import { skipToken } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { ButtonLink } from "@/components/Button";
import { CheckIcon } from "@/components/icons";
import { useDocumentTitle } from "@/lib/document-title";
import {
  emailLandingKey,
  type EmailLanding,
} from "@/features/outreach/landing";
import { useQuery } from "@/lib/use-query";

/** Reached without the server's outcome (e.g. by in-app navigation). */
const WITHOUT_OUTCOME: EmailLanding = {
  heading: "Open the link from your email",
  text: "This page shows what happened when you followed a link from one of our emails. Open the link from the email again.",
  link_href: "/",
  link_label: "Back to Home",
  status: 200,
};

/** The page a confirmation or unsubscribe link from our emails leads to. */
export function EmailLandingPage() {
  const [path] = useLocation();
  const { data } = useQuery<EmailLanding>({
    queryKey: emailLandingKey(path),
    queryFn: skipToken,
    staleTime: Infinity,
  });
  const landing = data ?? WITHOUT_OUTCOME;
  const worked =
    data !== undefined && landing.status === 200 && !landing.action;
  useDocumentTitle(landing.heading);
  return (
    <div className="section">
      <div className="container narrow center-block">
        {worked && (
          <span className="success-mark" aria-hidden="true">
            <CheckIcon />
          </span>
        )}
        <h1 className="page-title">{landing.heading}</h1>
        <p>{landing.text}</p>
        {landing.action ? (
          // A plain form, with or without scripts: the server acts and shows
          // this page again with where things stand.
          <form method="post" className="landing-action">
            <input type="hidden" name="intent" value={landing.action.intent} />
            <input type="hidden" name="token" value={landing.action.token} />
            <button type="submit" className="btn btn-primary btn-lg">
              {landing.action.label}
            </button>
          </form>
        ) : null}
        <ButtonLink
          href={landing.link_href}
          size="lg"
          {...(landing.action ? { variant: "quiet" as const } : {})}
        >
          {landing.link_label}
        </ButtonLink>
      </div>
    </div>
  );
}
