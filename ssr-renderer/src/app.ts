import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
} from "express";
import type { CriticalFn } from "./critical.js";
import type { RenderFn } from "./renderer.js";
import type { RequestTrace, Tracing } from "./tracing.js";

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

const message = (err: unknown) =>
  err instanceof Error ? err.message : String(err);

/**
 * The sidecar's HTTP surface: POST /render and GET /healthz. A render answers the CSS
 * the markup needs to paint, with `critical` (empty when that cannot be found: the page
 * then waits for the whole stylesheet), followed by the markup for `#root`: `CSS_BYTES`
 * says where the CSS ends.
 * With `tracing`, each render is a span in the trace of the request that asked for it.
 */
export function createApp(
  render: RenderFn,
  critical?: CriticalFn,
  tracing?: Tracing,
): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");

  // Each render's trace, from before its body is read to the end of its response.
  const traces = new WeakMap<Request, RequestTrace>();
  const traced: RequestHandler[] = [];
  if (tracing) {
    traced.push((req, res, next) => {
      const span = tracing.request(req.method, "/render", req.headers);
      traces.set(req, span);
      res.once("close", () => span.end(res.statusCode, !res.writableFinished));
      next();
    });
  }

  app.get("/healthz", (_req: Request, res: Response) => {
    res.type("text/plain").send("ok");
  });

  app.post(
    "/render",
    ...traced,
    express.json({ limit: "2mb" }),
    async (req: Request, res: Response) => {
      if (!isRenderBody(req.body)) {
        res
          .status(400)
          .json({ error: "expected a JSON body {url: string, data: object}" });
        return;
      }
      const { url, data } = req.body;
      const span = traces.get(req);
      span?.rendering(url);
      let html: string;
      try {
        html = span
          ? span.phase("react render", () => render(url, data))
          : render(url, data);
      } catch (err) {
        console.error(`render failed for ${url}:`, err);
        res.status(500).json({ error: message(err) });
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
      // the markup, the header saying where one ends (the app splits it there).
      const body = Buffer.from(css + html);
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "content-length": body.length,
        [CSS_BYTES]: Buffer.byteLength(css),
      });
      res.end(body);
    },
  );

  app.use((_req: Request, res: Response) => {
    res.status(404).json({ error: "not found" });
  });

  // Body-parser failures (bad JSON, too large, wrong encoding) are client errors.
  const onError: ErrorRequestHandler = (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const status = (err as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      res.status(status).json({ error: message(err) });
      return;
    }
    console.error("unexpected error:", err);
    res.status(500).json({ error: message(err) });
  };
  app.use(onError);

  return app;
}
