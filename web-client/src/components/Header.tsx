import { useEffect, useRef, useState, type Ref } from "react";
import { Link, useLocation } from "wouter";
import { Button, ButtonLink } from "@/components/Button";
import { isCurrent, PRIMARY_LINKS } from "@/components/nav-links";
import { useKeptMarkup } from "@/lib/kept-markup";
import { useReaderName } from "@/lib/reader";
import { useSession, type StaffUser } from "@/lib/session";
import { useSite } from "@/lib/site";
import { dashboardLabel, dashboardPath } from "@/lib/staff-roles";

export function Header() {
  const { name } = useSite();
  const [pathname, navigate] = useLocation();
  const { user, logout } = useSession();
  const reader = useReaderName();
  const kept = useKeptMarkup();
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

  const current = currentLink(pathname);
  // The server renders the same contents once per name, section and reader
  // (entry-server): no one is signed in as staff there, and the menu is shut.
  if (kept && !user) {
    return (
      <header
        className="site-header"
        dangerouslySetInnerHTML={{
          __html: kept.header(current, reader !== null),
        }}
      />
    );
  }
  return (
    <header className={user ? "site-header is-staff" : "site-header"}>
      <HeaderContents
        name={name}
        current={current}
        open={open}
        user={user}
        reader={reader !== null}
        toggleRef={toggle}
        onToggle={() => setOpen((v) => !v)}
        onNavigate={() => setOpen(false)}
        onLogout={() => {
          setOpen(false);
          navigate("/");
          void logout();
        }}
      />
    </header>
  );
}

/** The header link of the section `pathname` is in, if any. */
export function currentLink(pathname: string): string | undefined {
  return PRIMARY_LINKS.find((link) => isCurrent(link.href, pathname))?.href;
}

export interface HeaderContentsProps {
  name: string;
  /** The header link of the section the reader is in. */
  current: string | undefined;
  /** The menu is open (on phones). */
  open: boolean;
  /** The signed-in staff member. */
  user: StaffUser | null;
  /** A reader is signed in: "Account" instead of "Login". */
  reader: boolean;
  toggleRef?: Ref<HTMLButtonElement>;
  onToggle?: () => void;
  /** A link in the header was followed. */
  onNavigate?: () => void;
  onLogout?: () => void;
}

/**
 * What the header holds, from its props alone: the server renders it once
 * for each name, section and reader (entry-server), the browser hydrates it
 * as usual.
 */
export function HeaderContents({
  name,
  current,
  open,
  user,
  reader,
  toggleRef,
  onToggle,
  onNavigate,
  onLogout,
}: HeaderContentsProps) {
  return (
    <div className="container header-inner">
      <Link href="/" className="brand" onClick={onNavigate}>
        <span className="brand-mark" aria-hidden="true">
          A
        </span>
        <span className="brand-name">{name}</span>
      </Link>
      <nav className="nav" aria-label="Main">
        <button
          ref={toggleRef}
          type="button"
          className="nav-toggle"
          aria-expanded={open}
          aria-controls="site-nav"
          onClick={onToggle}
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
                aria-current={link.href === current ? "page" : undefined}
                onClick={onNavigate}
              >
                {link.label}
              </Link>
            </li>
          ))}
          {user ? (
            // On phones Logout lives here, so the header keeps one row.
            <li className="nav-account">
              <button type="button" className="nav-link" onClick={onLogout}>
                Logout
              </button>
            </li>
          ) : null}
        </ul>
      </nav>
      <AccountActions
        user={user}
        reader={reader}
        onNavigate={onNavigate}
        onLogout={onLogout}
      />
    </div>
  );
}

/**
 * Login when signed out (and in the server's markup); Account for a signed-in
 * reader; the dashboard and Logout for staff.
 */
function AccountActions({
  user,
  reader,
  onNavigate,
  onLogout,
}: Pick<HeaderContentsProps, "user" | "reader" | "onNavigate" | "onLogout">) {
  if (!user && reader) {
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
      <Button className="header-login header-logout" onClick={onLogout}>
        Logout
      </Button>
    </div>
  );
}
