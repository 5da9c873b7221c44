import type { components } from "./api/schema";
import type { PageData } from "./app/page-data";
import { sample } from "./app/page-data.sample";
import { LAZY_PAGE_PATHS } from "./app/routes";
import { parseListingQuery } from "./features/content";
import { EMAIL_LANDING_PATHS } from "./features/outreach/landing";

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

const base = (url: string, status = 200): PageData => ({
  site: sample.site,
  path: url,
  status,
});

const article = sample.article;
// Cards with and without a cover (an uploaded one has WebP sizes), a subtitle, the
// featured mark.
const UPLOADED_COVER = "/media/covers/sample-cover.jpg";
const cards = (sample.list?.items ?? []).flatMap((card) => [
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
const failed = sample.form;
const succeeded = sample.form && { ...sample.form, error: undefined };
const related = sample.related && {
  ...sample.related,
  read_next: cards,
};
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
  const add = (url: string, data: Partial<PageData> = {}, status = 200) => {
    for (const reader of [false, true]) {
      pages.push({ url, data: { ...base(url, status), ...data, reader } });
    }
  };
  add("/", { home: listed(cards), newest: listed(cards) });
  add("/", { home: listed([]), newest: listed([]) });
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
      list,
      list_query: parseListingQuery(new URL(url, sample.site.url).search),
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
  if (article) {
    const url = `/article/${article.slug}`;
    add(url, {
      article: { ...article, content_html: EVERY_BLOCK },
      related,
    });
    add(url, {
      article: { ...article, cover_image: UPLOADED_COVER },
      related,
    });
    add(url, {
      article: { ...article, cover_image: undefined, subtitle: undefined },
      related: { read_next: [] },
    });
  }
  // Pages that are not there: any path, an article, a link from an email gone stale.
  add("/no-such-page", { newest: listed(cards) }, 404);
  add("/article/no-such-piece", { newest: listed(cards) }, 404);
  for (const path of EMAIL_LANDING_PATHS) {
    add(
      path,
      { landing: sample.landing && { ...sample.landing, status: 404 } },
      404,
    );
  }
  add("/magazine", { issues: sample.issues });
  add("/magazine", { issues: [] });
  add("/magazine", { issues: [], form: failed });
  add("/magazine", { issues: [], form: succeeded });
  if (sample.issue)
    add(`/magazine/${sample.issue.slug}`, { issue: sample.issue });
  add("/educational-packs", { packs: sample.packs });
  add("/educational-packs", { packs: { packs: [] } });
  add("/key-login");
  for (const path of LAZY_PAGE_PATHS) {
    if (path === "/magazine" || path === "/educational-packs") continue;
    add(path, { landing: sample.landing, account: sample.account });
    add(path, { form: failed });
    add(path, { form: succeeded });
  }
  return pages;
}
