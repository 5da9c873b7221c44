// How following a link from one of our emails went: the server looks up the
// link's token while rendering the page (a confirmation link confirms; an
// unsubscribe link only names its list and offers a button, since mail
// scanners open links) and sends the outcome with the page data.

export interface EmailLanding {
  heading: string;
  text: string;
  /** Where the reader may go next, and its label. */
  link_href: string;
  link_label: string;
  /** The page's HTTP status: 200 when the link worked. */
  status: number;
  /** A button that acts on the link, posted as a plain form. */
  action?: { intent: string; label: string; token: string };
}

/** The pages our emails link to. */
export const EMAIL_LANDING_PATHS = ["/email/confirm", "/email/unsubscribe"];

export const emailLandingKey = (path: string) =>
  ["outreach", "email-landing", path] as const;
