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
