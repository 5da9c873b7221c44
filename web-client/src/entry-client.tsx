import "./styles/global.css";
import "./styles/components.css";
import "./styles/frame.css";
import "./styles/forms.css";
import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app/App";
import { seedQueryCache } from "./app/initial-data";
import {
  readPageData,
  servedArticleBody,
  withArticleBody,
} from "./app/page-data";
import { preloadPage } from "./app/routes";
import { createQueryClient } from "./lib/query-client";

// The server inlines the CSS a page's markup needs and loads the whole stylesheet for print,
// so that the first paint never waits for it; it is applied to the screen from here.
for (const sheet of document.querySelectorAll<HTMLLinkElement>(
  "link[data-agora-css]",
)) {
  sheet.media = "all";
}

const { pathname, search } = window.location;
// An article's body is in the page once, in its markup: read back from there.
const data = withArticleBody(
  readPageData(
    document.getElementById("agora-data")?.textContent,
    pathname + search,
    window.location.origin,
  ),
  servedArticleBody(document),
);
const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from the page");
const container = root;

// The server's data for this page goes into the cache before the first
// render, so hydration renders exactly the server's HTML without a fetch.
const queryClient = createQueryClient();
seedQueryCache(queryClient, data, pathname, search);

function start() {
  const app = (
    <StrictMode>
      <App data={data} queryClient={queryClient} />
    </StrictMode>
  );
  // The app serves an empty shell (no server markup) when the renderer is down.
  // A dashboard's shell holds only what it says without scripts (<noscript>).
  const served = container.firstElementChild;
  // Hydrating in a transition lets React yield to the browser every few milliseconds, so
  // that a phone stays responsive to taps and scrolls while the page comes to life.
  if (served && served.tagName !== "NOSCRIPT")
    startTransition(() => {
      hydrateRoot(container, app);
    });
  else createRoot(container).render(app);
}

// A page outside the main bundle is loaded first, so that it hydrates as the
// server rendered it. Should its chunk fail to load, the server's page stays
// as it is, working as it does without scripts.
const chunk = preloadPage(pathname);
if (!chunk) start();
else
  chunk.then(start, () => {
    if (!container.firstElementChild) start();
  });

// An in-app link about to be followed starts loading its page's chunk.
function preloadTarget(event: Event) {
  const link = event.target instanceof Element && event.target.closest("a");
  if (link && link.origin === window.location.origin) {
    void preloadPage(link.pathname)?.catch(() => {});
  }
}
document.addEventListener("pointerover", preloadTarget, { passive: true });
document.addEventListener("focusin", preloadTarget);
