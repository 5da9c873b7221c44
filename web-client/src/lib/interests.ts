/**
 * The interests a reader chooses at registration and on their account page,
 * as the product gives them ("Digital Politics", where articles say "Digital
 * Democracy"). The server accepts exactly these.
 */
export const INTERESTS = [
  "International Affairs",
  "Youth Activism",
  "Human Rights",
  "Climate Justice",
  "Culture & Politics",
  "Digital Politics",
] as const;
