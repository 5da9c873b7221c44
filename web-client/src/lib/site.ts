import { createContext, useContext } from "react";

export interface Site {
  name: string;
  url: string;
}

export const DEFAULT_SITE: Site = { name: "The Agora", url: "" };

export const SiteContext = createContext<Site>(DEFAULT_SITE);

/** The configured site name and public URL (from the server's page data). */
export function useSite(): Site {
  return useContext(SiteContext);
}

/** Community and contact addresses shown in the footer and on /contact-us. */
export const COMMUNITY = {
  instagram: "https://www.instagram.com/theagora.youth",
  discord: "https://discord.gg/theagora",
  generalEmail: "hello@theagora.org",
  educationEmail: "education@theagora.org",
} as const;
