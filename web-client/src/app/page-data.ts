import type { components } from "@/api/schema";
import type { EmailLanding } from "@/features/outreach/landing";
import type { MagazineIssue, Packs } from "@/features/outreach/magazine";
import type { FormAnswer } from "@/lib/form-answer";

type ArticleList = components["schemas"]["ArticleList"];
/**
 * An article as its page carries it: all of the API's article but the markdown
 * source, which a reader's page never shows (its HTML is there).
 */
type ArticleOnPage = Omit<components["schemas"]["Article"], "content">;
type Related = components["schemas"]["Related"];

/**
 * What the Rust app hands to the renderer (POST /render on the sidecar) and
 * embeds in the page as `<script id="agora-data" type="application/json">`.
 */
export interface PageData {
  site: { name: string; url: string };
  /** pathname + search of the rendered request. */
  path: string;
  /** HTTP status of the page: 200, or 404 for an unknown path or article. */
  status: number;
  /** On "/": GET /api/v1/articles?sort=featured&limit=3. */
  home?: ArticleList;
  /** On a page that is not there (404): GET /api/v1/articles?sort=newest&limit=3. */
  newest?: ArticleList;
  /** On "/articles": the first `list_query.limit` results of the query. */
  list?: ArticleList;
  /** The listing query `list` answers, as the server parsed it from the URL. */
  list_query?: {
    q: string;
    categories: string[];
    limit: number;
    /** A search shown newest first (`sort=newest`). */
    newest: boolean;
  };
  /** On "/article/{slug}" when the article exists. */
  article?: ArticleOnPage;
  /** On "/article/{slug}": what to read next, and the author. */
  related?: Related;
  /** On the pages links in our emails lead to: how following the link went. */
  landing?: EmailLanding;
  /** On "/magazine": GET /api/v1/magazine/issues (empty before the first). */
  issues?: MagazineIssue[];
  /** On "/magazine/{slug}" when the issue is published. */
  issue?: MagazineIssue;
  /** On "/educational-packs": GET /api/v1/packs. */
  packs?: Packs;
  /** On "/account" for a signed-in reader: GET /api/v1/reader/account. */
  account?: components["schemas"]["Account"];
  /** On a page a form was posted to without JavaScript: what the server said. */
  form?: FormAnswer;
  /** The request carried a reader's session cookie: the header offers "Account". */
  reader?: boolean;
}

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
    return {
      ...(value as unknown as PageData),
      path: typeof value.path === "string" ? value.path : path,
      status: typeof value.status === "number" ? value.status : 200,
    };
  } catch {
    return fallback;
  }
}
