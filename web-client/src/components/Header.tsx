import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { ButtonLink } from "@/components/Button";
import { isCurrent, PRIMARY_LINKS } from "@/components/nav-links";
import { useSite } from "@/lib/site";

export function Header() {
  const { name } = useSite();
  const [pathname] = useLocation();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <header className="site-header">
      <div className="container header-inner">
        <Link href="/" className="brand" onClick={() => setOpen(false)}>
          <span className="brand-mark" aria-hidden="true">
            A
          </span>
          <span className="brand-name">{name}</span>
        </Link>
        <nav className="nav" aria-label="Main">
          <button
            type="button"
            className="nav-toggle"
            aria-expanded={open}
            aria-controls="site-nav"
            onClick={() => setOpen((v) => !v)}
          >
            <span className="nav-toggle-bars" aria-hidden="true" />
            Menu
          </button>
          <ul id="site-nav" className={open ? "nav-list is-open" : "nav-list"}>
            {PRIMARY_LINKS.map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  className="nav-link"
                  aria-current={
                    isCurrent(link.href, pathname) ? "page" : undefined
                  }
                  onClick={() => setOpen(false)}
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <ButtonLink href="/login" className="header-login">
          Login
        </ButtonLink>
      </div>
    </header>
  );
}
