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

export type Interest = (typeof INTERESTS)[number];

/** Whether `name` is one of the interests the server takes. */
export function isInterest(name: string): name is Interest {
  return (INTERESTS as readonly string[]).includes(name);
}
