// Generated from the categories (modules/content/src/model.rs): do not edit;
// regenerate with `UPDATE_SAMPLES=1 cargo test -p agora --lib route_table`.

/** Each category's page, its feed and its one line, by name. */
export const CATEGORY_PAGES = {
  "International Affairs": {
    slug: "international-affairs",
    path: "/category/international-affairs",
    feed: "/feed/international-affairs.xml",
    description:
      "Diplomacy, conflict and cooperation, explained by students who follow it.",
  },
  "Climate Justice": {
    slug: "climate-justice",
    path: "/category/climate-justice",
    feed: "/feed/climate-justice.xml",
    description: "Who pays for a warming planet, and who is fighting back.",
  },
  "Culture & Politics": {
    slug: "culture-politics",
    path: "/category/culture-politics",
    feed: "/feed/culture-politics.xml",
    description: "Music, film, sport and media where they meet power.",
  },
  "Human Rights": {
    slug: "human-rights",
    path: "/category/human-rights",
    feed: "/feed/human-rights.xml",
    description: "Dignity, freedom and justice — at home and around the world.",
  },
  "Youth Activism": {
    slug: "youth-activism",
    path: "/category/youth-activism",
    feed: "/feed/youth-activism.xml",
    description:
      "Walkouts, campaigns and organisers changing their communities.",
  },
  "Digital Democracy": {
    slug: "digital-democracy",
    path: "/category/digital-democracy",
    feed: "/feed/digital-democracy.xml",
    description:
      "Platforms, privacy and how technology reshapes public debate.",
  },
} as const;
