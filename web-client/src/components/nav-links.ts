export interface NavLink {
  href: string;
  label: string;
}

/** Every public page, in header order. */
export const PRIMARY_LINKS: readonly NavLink[] = [
  { href: "/", label: "Home" },
  { href: "/articles", label: "Articles" },
  { href: "/magazine", label: "Magazine" },
  { href: "/educational-packs", label: "Educational Packs" },
  { href: "/about", label: "About" },
  { href: "/contributors", label: "Contributors" },
  { href: "/contact-us", label: "Contact" },
];

/** Whether `href` is the section the reader is in (article pages belong to /articles). */
export function isCurrent(href: string, pathname: string): boolean {
  if (href === "/") return pathname === "/";
  if (href === "/articles")
    return pathname === "/articles" || pathname.startsWith("/article/");
  return pathname === href || pathname.startsWith(`${href}/`);
}
