import type { components } from "@/api/schema";

/** One of the six article categories (an enum in the API contract). */
export type Category = components["schemas"]["Category"];

// A record keyed by the contract's enum, so adding or renaming a category in
// the API breaks the build here until the filters follow.
const POSITION: Record<Category, number> = {
  "International Affairs": 0,
  "Climate Justice": 1,
  "Culture & Politics": 2,
  "Human Rights": 3,
  "Youth Activism": 4,
  "Digital Democracy": 5,
};

/** The six categories, in the order the API and the filter chips use. */
export const CATEGORIES: readonly Category[] = (
  Object.keys(POSITION) as Category[]
).sort((a, b) => POSITION[a] - POSITION[b]);

export function isCategory(value: string): value is Category {
  return Object.hasOwn(POSITION, value);
}

/** Home page tiles, in the order the spec lists them. */
export const CATEGORY_TILES: readonly { name: Category; blurb: string }[] = [
  {
    name: "International Affairs",
    blurb:
      "Diplomacy, conflict and cooperation, explained by students who follow it.",
  },
  {
    name: "Youth Activism",
    blurb: "Walkouts, campaigns and organisers changing their communities.",
  },
  {
    name: "Human Rights",
    blurb: "Dignity, freedom and justice — at home and around the world.",
  },
  {
    name: "Climate Justice",
    blurb: "Who pays for a warming planet, and who is fighting back.",
  },
  {
    name: "Culture & Politics",
    blurb: "Music, film, sport and media where they meet power.",
  },
  {
    name: "Digital Democracy",
    blurb: "Platforms, privacy and how technology reshapes public debate.",
  },
];
