import type {
  IncomingMessage,
  RequestListener,
  ServerResponse,
} from "node:http";
import { parse as parseContentType, type ContentType } from "content-type";
import getRawBody from "raw-body";
import type { CriticalFn } from "./critical.js";
import type { RenderFn } from "./renderer.js";
import type { RequestTrace, Tracing } from "./tracing.js";
import { message } from "./message.js";

interface RenderBody {
  url: string;
  data: Record<string, unknown>;
}

function isRenderBody(body: unknown): body is RenderBody {
  if (typeof body !== "object" || body === null) return false;
  const { url, data } = body as Record<string, unknown>;
  return (
    typeof url === "string" &&
    url.startsWith("/") &&
    typeof data === "object" &&
    data !== null &&
    !Array.isArray(data)
  );
}

/** The header of a render's answer giving the length of its CSS, in bytes. */
export const CSS_BYTES = "x-critical-css-bytes";

/** The largest render request read (the page data of one page). */
const BODY_LIMIT = "2mb";

/** A request's content type (the media type lower-cased, and its parameters), if it parses. */
function contentTypeOf(header: string | undefined): ContentType | undefined {
  if (!header) return undefined;
  try {
    return parseContentType(header);
  } catch {
    return undefined;
  }
}

function answerJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

const encoder = new TextEncoder();

/**
 * The sidecar's HTTP surface: POST /render and GET /healthz, answered here, and the rest
 * (the 404s) by Express (`fallback.ts`). A render is answered outside Express: going through
 * it (its router and the request and response objects it re-prototypes) cost a tenth of a
 * render's CPU. Express is loaded on the first request for another route: its bundle is half
 * the sidecar's code, and parsing it at start-up held every restart back by a sixth of a
 * second while the app waited for `/healthz`.
 *
 * A render answers the CSS the markup needs to paint, with `critical` (empty when that
 * cannot be found: the page then waits for the whole stylesheet), followed by the markup for
 * `#root`: `CSS_BYTES` says where the CSS ends.
 * With `tracing`, each render is a span in the trace of the request that asked for it.
 */
export function createSidecar(
  render: RenderFn,
  critical?: CriticalFn,
  tracing?: Tracing,
): RequestListener {
  let fallback: Promise<RequestListener> | undefined;
  const others: RequestListener = (req, res) => {
    fallback ??= import("./fallback.js").then((m) => m.createFallback());
    fallback.then(
      (app) => app(req, res),
      (err: unknown) => {
        console.error("cannot load the sidecar's other routes:", err);
        fallback = undefined;
        answerJson(res, 500, { error: message(err) });
      },
    );
  };

  const renderPage = async (
    url: string,
    data: Record<string, unknown>,
    res: ServerResponse,
    span: RequestTrace | undefined,
  ) => {
    span?.rendering(url);
    let html: string;
    try {
      html = span
        ? span.phase("react render", () => render(url, data))
        : render(url, data);
    } catch (err) {
      console.error(`render failed for ${url}:`, err);
      answerJson(res, 500, { error: message(err) });
      return;
    }
    let css = "";
    if (critical) {
      try {
        const status = typeof data.status === "number" ? data.status : 200;
        css = await (span
          ? span.phase("critical css", () => critical(html, url, status))
          : critical(html, url, status));
      } catch (err) {
        console.error(`no critical CSS for ${url}:`, err);
      }
    }
    // The page as it is, not a JSON string to escape and unescape again: the CSS, then
    // the markup, the header saying where one ends (the app splices them). Each is encoded
    // on its own: joined, the (ASCII) CSS would be re-encoded as the markup's wider text.
    const cssBytes = Buffer.from(css);
    const htmlBytes = encoder.encode(html);
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-length": cssBytes.length + htmlBytes.length,
      [CSS_BYTES]: cssBytes.length,
    });
    res.cork();
    res.write(cssBytes);
    res.end(htmlBytes);
  };

  const renderRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const span = tracing?.request("POST", "/render", req.headers);
    if (span) {
      res.once("close", () => span.end(res.statusCode, !res.writableFinished));
    }
    const contentType = contentTypeOf(req.headers["content-type"]);
    let text: string;
    try {
      const encoding = req.headers["content-encoding"] ?? "identity";
      const charset = (
        contentType?.parameters["charset"] ?? "utf-8"
      ).toLowerCase();
      if (encoding.toLowerCase() !== "identity" || !/^utf-?8$/.test(charset)) {
        answerJson(res, 415, {
          error: "a render request is UTF-8 JSON, not compressed",
        });
        req.resume();
        return;
      }
      // Read as bytes and decoded once: decoding as it streams in cost more.
      const bytes = await getRawBody(req, {
        length: req.headers["content-length"],
        limit: BODY_LIMIT,
      });
      text = bytes.toString("utf8");
    } catch (err) {
      // Too large, cut short, or a length it does not have: read off what is left.
      req.resume();
      const status = (err as { status?: unknown }).status;
      answerJson(res, typeof status === "number" ? status : 400, {
        error: message(err),
      });
      return;
    }
    let body: unknown;
    try {
      body = contentType?.type === "application/json" ? JSON.parse(text) : null;
    } catch (err) {
      answerJson(res, 400, { error: `the body is not JSON: ${message(err)}` });
      return;
    }
    if (!isRenderBody(body)) {
      answerJson(res, 400, {
        error: "expected a JSON body {url: string, data: object}",
      });
      return;
    }
    await renderPage(body.url, body.data, res, span);
  };

  return (req, res) => {
    const path = req.url?.split("?", 1)[0];
    if (
      (req.method === "GET" || req.method === "HEAD") &&
      path === "/healthz"
    ) {
      res.writeHead(200, {
        "content-type": "text/plain; charset=utf-8",
        "content-length": 2,
      });
      res.end("ok");
    } else if (req.method === "POST" && path === "/render") {
      renderRequest(req, res).catch((err: unknown) => {
        console.error("unexpected error:", err);
        if (!res.headersSent) answerJson(res, 500, { error: message(err) });
        else res.destroy();
      });
    } else {
      others(req, res);
    }
  };
}
