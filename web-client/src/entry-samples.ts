import type { components } from "./api/schema";
import type { PageData, Shown } from "./app/page-data";
import { sampleOf } from "./app/page-data.sample-of";
import { LAZY_PAGE_PATHS } from "./app/routes";
import { parseListingQuery } from "./features/content";
import { EMAIL_LANDING_PATHS } from "./features/outreach/landing";
import type { Category } from "./lib/categories";

type ArticleList = components["schemas"]["ArticleList"];

/** A page the server renders, with the data it would be rendered with. */
export interface PageSample {
  url: string;
  data: PageData;
}

/**
 * Every element an article's body may hold: what the app's sanitizer keeps
 * (modules/content/src/derive.rs).
 */
const EVERY_BLOCK = [
  "<h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>",
  "<p>Text with <strong>strong</strong>, <em>em</em>, <code>code</code>,",
  ' <a href="https://example.org" rel="noopener noreferrer" target="_blank">a link</a><br>and a break.</p>',
  "<blockquote><p>Quoted.</p></blockquote><hr>",
  "<pre><code>code block</code></pre>",
  '<ul><li>one</li></ul><ol start="2"><li>two</li></ol>',
].join("");

const { site, form } = sampleOf("plain");
const {
  article,
  related: sampleRelated,
  responses: sampleResponses,
} = sampleOf("article");
const listedSample = sampleOf("articles").list;
const { landing } = sampleOf("landing");
// Cards with and without a cover (an uploaded one has WebP sizes), a subtitle, the
// featured mark.
const UPLOADED_COVER = "/media/covers/sample-cover.jpg";
const cards = (listedSample?.items ?? []).flatMap((card) => [
  card,
  { ...card, id: `${card.id}-uploaded`, cover_image: UPLOADED_COVER },
  {
    ...card,
    id: `${card.id}-plain`,
    cover_image: undefined,
    subtitle: undefined,
    featured: !card.featured,
  },
]);
// A form posted without JavaScript, refused and accepted.
const failed = form;
const succeeded = form && { ...form, error: undefined };
const related = { ...sampleRelated, read_next: cards };
const listed = (items: typeof cards, total = items.length): ArticleList => ({
  items,
  total,
  total_exact: true,
  published_total: total,
});

/**
 * The pages of the site in each state a reader can meet them in, from the
 * app's own sample data: the build works out the CSS each kind of page needs
 * from them (ssr-renderer's precompute), so that the renderer does not at
 * every start-up. A page unlike any of these still gets its CSS, found as it
 * is rendered.
 */
export function samples(): PageSample[] {
  const pages: PageSample[] = [];
  const add = (
    url: string,
    shown: Shown = { kind: "plain" },
    status = 200,
    answer?: PageData["form"],
  ) => {
    for (const reader of [false, true]) {
      const data: PageData = { site, path: url, status, ...shown, reader };
      if (answer) data.form = answer;
      pages.push({ url, data });
    }
  };
  add("/", { kind: "home", home: listed(cards) });
  add("/", { kind: "home", home: listed([]) });
  // The listing and search in each state: results (more than a page), a category chosen,
  // words marked, best match or newest first, nothing found with and without a suggestion.
  const marked = cards.map((c) => ({
    ...c,
    highlight: [
      { text: "…about the ", marked: false },
      { text: "vote", marked: true },
    ],
  }));
  const listing = (url: string, list: ArticleList) =>
    add(url, {
      kind: "articles",
      list,
      list_query: parseListingQuery(new URL(url, site.url).search),
    });
  listing("/articles", listed(cards, 40));
  listing(
    "/articles?category=Human%20Rights&category=Youth%20Activism",
    listed(cards),
  );
  listing("/articles?q=vote", listed(marked, 40));
  listing(
    "/articles?q=vote&sort=newest&category=Human%20Rights",
    listed(marked),
  );
  listing("/articles?q=electon", { ...listed([]), suggestion: "election" });
  listing("/articles?q=zzz", listed([]));
  listing("/articles?category=Human%20Rights", listed([]));
  // A category's page: more than a page of pieces, and none yet.
  const category = (slug: string, name: Category, list: ArticleList) =>
    add(`/category/${slug}`, {
      kind: "category",
      list,
      list_query: { q: "", categories: [name], limit: 6, newest: false },
    });
  category("human-rights", "Human Rights", listed(cards, 40));
  category("digital-democracy", "Digital Democracy", listed([]));
  // A contributor's page: with a photo, a bio and more than a page of pieces; with neither.
  const author = (bio: string, photo: string | undefined, list: ArticleList) =>
    add("/author/maya-o", {
      kind: "author",
      author: { name: "Maya O.", slug: "maya-o", role: "Writer", bio, photo },
      list,
      list_query: { q: "", categories: [], limit: 6, newest: false },
    });
  author(
    "I write about elections.\nAnd school councils.",
    UPLOADED_COVER,
    listed(cards, 40),
  );
  author("", undefined, listed(cards.slice(0, 1)));
  const url = `/article/${article.slug}`;
  add(url, {
    kind: "article",
    article: { ...article, content_html: EVERY_BLOCK },
    related,
  });
  add(url, {
    kind: "article",
    article: { ...article, cover_image: UPLOADED_COVER },
    related,
  });
  add(url, {
    kind: "article",
    article: { ...article, cover_image: undefined, subtitle: undefined },
    related: { read_next: [] },
  });
  // Readers' responses: some, or none and closed; the send form's answers.
  add(url, { kind: "article", article, related, responses: sampleResponses });
  add(url, {
    kind: "article",
    article,
    related,
    responses: { open: false, responses: [] },
  });
  for (const answer of [failed, succeeded]) {
    add(
      url,
      { kind: "article", article, related, responses: sampleResponses },
      200,
      answer && { ...answer, intent: "respond" },
    );
  }
  // Pages that are not there: any path, an article, a link from an email gone stale.
  const gone: Shown = { kind: "not_found", newest: listed(cards) };
  add("/no-such-page", gone, 404);
  add("/article/no-such-piece", gone, 404);
  for (const path of EMAIL_LANDING_PATHS) {
    add(path, { kind: "landing", landing: { ...landing, status: 404 } }, 404);
  }
  add("/magazine", sampleOf("magazine"));
  add("/magazine", { kind: "magazine", issues: [] });
  add("/magazine", { kind: "magazine", issues: [] }, 200, failed);
  add("/magazine", { kind: "magazine", issues: [] }, 200, succeeded);
  const { issue } = sampleOf("issue");
  add(`/magazine/${issue.slug}`, { kind: "issue", issue });
  add("/educational-packs", sampleOf("packs"));
  add("/educational-packs", { kind: "packs", packs: { packs: [] } });
  add("/key-login");
  // The account page signed out: it offers to sign in.
  add("/account", { kind: "account" });
  for (const path of LAZY_PAGE_PATHS) {
    if (path === "/magazine" || path === "/educational-packs") continue;
    add(path, lazyShown(path));
    add(path, lazyShown(path), 200, failed);
    add(path, lazyShown(path), 200, succeeded);
  }
  return pages;
}

/** What the server sends for a page outside the main bundle. */
function lazyShown(path: string): Shown {
  if (path === "/account") return sampleOf("account");
  if (EMAIL_LANDING_PATHS.includes(path)) return { kind: "landing", landing };
  return { kind: "plain" };
}
