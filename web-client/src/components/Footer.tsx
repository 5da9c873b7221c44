import { Link } from "wouter";
import { COMMUNITY, useSite } from "@/lib/site";
import { DiscordIcon, InstagramIcon } from "@/components/icons";
import { useKeptMarkup } from "@/lib/kept-markup";

const YEAR = new Date().getUTCFullYear();

const GROUPS = [
  {
    title: "Quick Links",
    links: [
      { href: "/", label: "Home" },
      { href: "/articles", label: "Articles" },
      { href: "/magazine", label: "Magazine" },
      { href: "/about", label: "About Us" },
      { href: "/contact-us", label: "Contact" },
    ],
  },
  {
    title: "For Educators",
    links: [{ href: "/educational-packs", label: "Educational Packs" }],
  },
  {
    title: "Get Involved",
    links: [
      { href: "/contributors", label: "Become a Contributor" },
      { href: "/application", label: "Apply Now" },
    ],
  },
] as const;

export function Footer() {
  const { name } = useSite();
  const kept = useKeptMarkup();
  // The server renders the same contents once per site name (entry-server).
  if (kept) {
    return (
      <footer
        className="site-footer"
        dangerouslySetInnerHTML={{ __html: kept.footer }}
      />
    );
  }
  return (
    <footer className="site-footer">
      <FooterContents name={name} />
    </footer>
  );
}

/**
 * What the footer holds: it depends on the site's name alone, so the server
 * renders it once (entry-server) and the browser hydrates it as usual.
 */
export function FooterContents({ name }: { name: string }) {
  return (
    <>
      <div className="container footer-grid">
        <div className="footer-about">
          <p className="footer-brand">{name}</p>
          <p>
            A youth-run publication where high school students write about
            global politics, human rights and the future they want.
          </p>
          <ul className="social" aria-label="Community">
            <li>
              <a
                href={COMMUNITY.instagram}
                target="_blank"
                rel="noopener noreferrer"
              >
                <InstagramIcon /> Instagram
              </a>
            </li>
            <li>
              <a
                href={COMMUNITY.discord}
                target="_blank"
                rel="noopener noreferrer"
              >
                <DiscordIcon /> Discord
              </a>
            </li>
          </ul>
        </div>
        {GROUPS.map((group) => (
          <nav
            key={group.title}
            aria-label={group.title}
            className="footer-group"
          >
            <h2 className="footer-title">{group.title}</h2>
            <ul>
              {group.links.map((link) => (
                <li key={link.href}>
                  <Link href={link.href}>{link.label}</Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="container footer-bottom">
        <p>
          © {YEAR} {name}. Written by young people, for everyone.
        </p>
      </div>
    </>
  );
}
