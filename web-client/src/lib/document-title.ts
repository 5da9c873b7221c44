import { useEffect } from "react";
import { useSite } from "@/lib/site";

// The server writes <title> and the social tags for the first page; the
// client only retitles after an in-app navigation, the way the server would
// (titles of public pages come from the route table: see lib/pages.gen.ts).
const firstUrl =
  typeof window === "undefined"
    ? ""
    : window.location.pathname + window.location.search;
let navigated = false;

/** "Title | Site", or with "site-first" (the home page) "Site | Title". */
export function useDocumentTitle(
  title: string | null | undefined,
  order: "page-first" | "site-first" = "page-first",
): void {
  const { name } = useSite();
  useEffect(() => {
    if (!title) return;
    const here = window.location.pathname + window.location.search;
    if (!navigated && here === firstUrl) return;
    navigated = true;
    document.title =
      title === name
        ? name
        : order === "site-first"
          ? `${name} | ${title}`
          : `${title} | ${name}`;
  }, [title, name, order]);
}
