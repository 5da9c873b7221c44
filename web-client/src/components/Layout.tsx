import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "wouter";
import { Footer } from "@/components/Footer";
import { Header } from "@/components/Header";
import { isInPage } from "@/lib/in-page";

export function Layout({ children }: { children: ReactNode }) {
  const [pathname] = useLocation();
  const firstRender = useRef(true);

  // After an in-app navigation to another page, start at the top and move
  // focus to the new content, as a full page load would; not for a change of
  // address within the page (the editor of a dashboard opening or closing).
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    if (isInPage(window.history.state)) return;
    window.scrollTo(0, 0);
    document.getElementById("main")?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </>
  );
}
