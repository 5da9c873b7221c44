import type { Category } from "@/lib/categories";

// The list itself is shared (the article editor offers it too).
export { CATEGORIES, isCategory, type Category } from "@/lib/categories";

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
