import { useEffect } from "react";
import { useSite } from "@/lib/site";

// The server writes <title> and the social tags for the first page; the
// client only retitles after an in-app navigation.
const firstUrl =
  typeof window === "undefined"
    ? ""
    : window.location.pathname + window.location.search;
let navigated = false;

export function useDocumentTitle(title: string | null | undefined): void {
  const { name } = useSite();
  useEffect(() => {
    if (!title) return;
    const here = window.location.pathname + window.location.search;
    if (!navigated && here === firstUrl) return;
    navigated = true;
    document.title = title === name ? name : `${title} | ${name}`;
  }, [title, name]);
}
