import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { Button, ButtonLink } from "@/components/Button";
import { isCurrent, PRIMARY_LINKS } from "@/components/nav-links";
import { useReaderName } from "@/lib/reader";
import { useSession } from "@/lib/session";
import { useSite } from "@/lib/site";
import { dashboardLabel, dashboardPath } from "@/lib/staff-roles";

export function Header() {
  const { name } = useSite();
  const [pathname, navigate] = useLocation();
  const { user, logout } = useSession();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      // Focus goes back to the button that opened the menu, not to the page.
      toggle.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <header className={user ? "site-header is-staff" : "site-header"}>
      <div className="container header-inner">
        <Link href="/" className="brand" onClick={() => setOpen(false)}>
          <span className="brand-mark" aria-hidden="true">
            A
          </span>
          <span className="brand-name">{name}</span>
        </Link>
        <nav className="nav" aria-label="Main">
          <button
            ref={toggle}
            type="button"
            className="nav-toggle"
            aria-expanded={open}
            aria-controls="site-nav"
            onClick={() => setOpen((v) => !v)}
          >
            <span className="nav-toggle-bars" aria-hidden="true" />
            <span className="nav-toggle-text">Menu</span>
          </button>
          <noscript>
            <a className="nav-toggle" href="#site-nav">
              <span className="nav-toggle-bars" aria-hidden="true" />
              Menu
            </a>
          </noscript>
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
            {user ? (
              // On phones Logout lives here, so the header keeps one row.
              <li className="nav-account">
                <button
                  type="button"
                  className="nav-link"
                  onClick={() => {
                    setOpen(false);
                    navigate("/");
                    void logout();
                  }}
                >
                  Logout
                </button>
              </li>
            ) : null}
          </ul>
        </nav>
        <AccountActions onNavigate={() => setOpen(false)} />
      </div>
    </header>
  );
}

/**
 * Login when signed out (and in the server's markup); Account for a signed-in
 * reader; the dashboard and Logout for staff.
 */
function AccountActions({ onNavigate }: { onNavigate: () => void }) {
  const { user, logout } = useSession();
  const reader = useReaderName();
  const [, navigate] = useLocation();

  if (!user && reader !== null) {
    return (
      <ButtonLink
        href="/account"
        variant="secondary"
        className="header-login header-reader"
        onClick={onNavigate}
      >
        Account
      </ButtonLink>
    );
  }
  if (!user) {
    return (
      <ButtonLink href="/login" className="header-login" onClick={onNavigate}>
        Login
      </ButtonLink>
    );
  }
  return (
    <div className="header-account">
      <ButtonLink
        href={dashboardPath(user.role)}
        variant="secondary"
        className="header-login"
        onClick={onNavigate}
      >
        {dashboardLabel(user.role)}
      </ButtonLink>
      <Button
        className="header-login header-logout"
        onClick={() => {
          onNavigate();
          navigate("/");
          void logout();
        }}
      >
        Logout
      </Button>
    </div>
  );
}
