import type { components } from "@/api/schema";
import type { EmailLanding } from "@/features/outreach/landing";
import type { MagazineIssue, Packs } from "@/features/outreach/magazine";
import type { FormAnswer } from "@/lib/form-answer";

type ArticleList = components["schemas"]["ArticleList"];
/**
 * An article as its page carries it: all of the API's article but its body,
 * so that the page carries the body once. A reader's page never shows the
 * markdown source; the HTML is in the page's markup, where the app puts it at
 * `ARTICLE_BODY_MARK`, and is read back from there before hydrating
 * (`withArticleBody`).
 */
type ArticleOnPage = Omit<
  components["schemas"]["Article"],
  "content" | "content_html"
> & { content_html?: string };
type Related = components["schemas"]["Related"];

/** The listing query a listing answers, as the server parsed it from the URL. */
export interface ListQuery {
  q: string;
  categories: string[];
  limit: number;
  /** A search shown newest first (`sort=newest`). */
  newest: boolean;
}

/**
 * What a page shows from the server, by its `kind`: one kind per kind of page,
 * each with its own fields (the app's `Shown`, app/src/web/page_resolve.rs).
 */
export type Shown =
  /** A page whose content is the client's own (about, forms, sign-in, dashboards). */
  | { kind: "plain" }
  /** "/": GET /api/v1/articles?sort=featured&limit=3 (absent if it failed). */
  | { kind: "home"; home?: ArticleList }
  /** A page that is not there (404): the newest articles, offered instead. */
  | { kind: "not_found"; newest?: ArticleList }
  /** "/articles": the first `list_query.limit` results of the query. */
  | { kind: "articles"; list?: ArticleList; list_query: ListQuery }
  /** "/category/{slug}": the category's first `list_query.limit` pieces, newest first. */
  | { kind: "category"; list?: ArticleList; list_query: ListQuery }
  /** "/author/{slug}": the contributor and their first `list_query.limit` pieces. */
  | {
      kind: "author";
      author: components["schemas"]["Contributor"];
      list?: ArticleList;
      list_query: ListQuery;
    }
  /** "/article/{slug}": the article, what to read next, the author and readers' responses. */
  | {
      kind: "article";
      article: ArticleOnPage;
      related: Related;
      responses?: components["schemas"]["ArticleResponses"];
    }
  /** The pages links in our emails lead to: how following the link went. */
  | { kind: "landing"; landing: EmailLanding }
  /** "/magazine": GET /api/v1/magazine/issues (empty before the first). */
  | { kind: "magazine"; issues: MagazineIssue[] }
  /** "/magazine/{slug}" when the issue is published. */
  | { kind: "issue"; issue: MagazineIssue }
  /** "/educational-packs": GET /api/v1/packs. */
  | { kind: "packs"; packs: Packs }
  /** "/account": GET /api/v1/reader/account, absent when no reader is signed in. */
  | {
      kind: "account";
      account?: components["schemas"]["Account"];
      /** GET /api/v1/reader/responses. */
      responses?: components["schemas"]["MyResponse"][];
    };

/** What every page's data has, whatever its kind. */
export interface PageFrame {
  site: { name: string; url: string };
  /** pathname + search of the rendered request. */
  path: string;
  /** HTTP status of the page: 200, or 404 for an unknown path or article. */
  status: number;
  /** On a page a form was posted to without JavaScript: what the server said. */
  form?: FormAnswer;
  /** The request carried a reader's session cookie: the header offers "Account". */
  reader?: boolean;
}

/**
 * What the Rust app hands to the renderer (POST /render on the sidecar) and
 * embeds in the page as `<script id="agora-data" type="application/json">`.
 */
export type PageData = PageFrame & Shown;

/** The page data of one kind. */
export type PageOf<K extends Shown["kind"]> = PageFrame &
  Extract<Shown, { kind: K }>;

/**
 * What the server render writes where an article's body goes, when the page
 * data has no body: the app puts the body there (app/src/ssr/template.rs).
 */
export const ARTICLE_BODY_MARK = "<!--agora-body-->";

/**
 * `data` with its article's body, when it is an article's page whose data
 * does not carry one; otherwise `data` as it is. `body` undefined leaves it
 * without: the page then loads the article from the API.
 */
export function withArticleBody(
  data: PageData,
  body: string | undefined,
): PageData {
  if (
    data.kind !== "article" ||
    data.article.content_html !== undefined ||
    body === undefined
  ) {
    return data;
  }
  return { ...data, article: { ...data.article, content_html: body } };
}

/**
 * The body of the article a server-rendered page shows, as the app served
 * it: in the markup (`[data-agora-body]`), or, beside the data of a page the
 * app could not render, in `<template id="agora-body">`.
 */
export function servedArticleBody(
  doc: Pick<Document, "getElementById" | "querySelector">,
): string | undefined {
  const template = doc.getElementById("agora-body");
  if (template?.tagName === "TEMPLATE") return template.innerHTML;
  return doc.querySelector("#root [data-agora-body]")?.innerHTML;
}

const KINDS: ReadonlySet<string> = new Set<Shown["kind"]>([
  "plain",
  "home",
  "not_found",
  "articles",
  "category",
  "author",
  "article",
  "landing",
  "magazine",
  "issue",
  "packs",
  "account",
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads the embedded page data. A missing or malformed payload (the app
 * serves a bare shell when the renderer is down) yields minimal defaults, and
 * pages then load what they need from the API.
 */
export function readPageData(
  json: string | null | undefined,
  path: string,
  origin = "",
): PageData {
  const fallback: PageData = {
    site: { name: "The Agora", url: origin },
    path,
    status: 200,
    kind: "plain",
  };
  if (!json) return fallback;
  try {
    const value: unknown = JSON.parse(json);
    if (
      !isObject(value) ||
      !isObject(value.site) ||
      typeof value.site.name !== "string"
    ) {
      return fallback;
    }
    const frame = {
      ...(value as unknown as PageData),
      path: typeof value.path === "string" ? value.path : path,
      status: typeof value.status === "number" ? value.status : 200,
    };
    // A kind this client does not know (a newer server): a page it loads itself.
    return typeof value.kind === "string" && KINDS.has(value.kind)
      ? frame
      : { ...frame, kind: "plain" };
  } catch {
    return fallback;
  }
}
