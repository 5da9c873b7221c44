import { CATEGORY_PAGES } from "@/lib/categories.gen";
import type { Category } from "@/lib/categories";

// The list itself is shared (the article editor offers it too).
export { CATEGORIES, isCategory, type Category } from "@/lib/categories";

/** A category's page and feed, and its one line, as the server has them. */
export interface CategoryPage {
  name: Category;
  slug: string;
  /** "/category/human-rights". */
  path: string;
  /** Its Atom feed, "/feed/human-rights.xml". */
  feed: string;
  description: string;
}

// Keyed by the contract's enum: a category the server adds breaks the build
// here until the generated file (lib/categories.gen.ts) follows.
const PAGES: Record<Category, Omit<CategoryPage, "name">> = CATEGORY_PAGES;

/** The page of the category `name`. */
export function categoryPage(name: Category): CategoryPage {
  return { name, ...PAGES[name] };
}

/** The category whose page has the address `slug` (`undefined` for none). */
export function categoryOfSlug(slug: string): CategoryPage | undefined {
  const entry = Object.entries(PAGES).find(([, page]) => page.slug === slug);
  return entry ? categoryPage(entry[0] as Category) : undefined;
}

/** Home page tiles, in the order the spec lists them. */
export const CATEGORY_TILES: readonly CategoryPage[] = (
  [
    "International Affairs",
    "Youth Activism",
    "Human Rights",
    "Climate Justice",
    "Culture & Politics",
    "Digital Democracy",
  ] as const
).map(categoryPage);
