// How following a link from one of our emails went (confirm an account,
// unsubscribe): the server acts on the link's token while rendering the page
// and sends the outcome with the page data. Nothing fetches it again.

export interface EmailLanding {
  heading: string;
  text: string;
  /** Where the reader may go next, and its label. */
  link_href: string;
  link_label: string;
  /** The page's HTTP status: 200 when the link worked. */
  status: number;
}

/** The pages our emails link to. */
export const EMAIL_LANDING_PATHS = ["/email/confirm", "/email/unsubscribe"];

export const emailLandingKey = (path: string) =>
  ["outreach", "email-landing", path] as const;
