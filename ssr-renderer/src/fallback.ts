import type { RequestListener } from "node:http";
import express, {
  type ErrorRequestHandler,
  type Request,
  type Response,
} from "express";
import { message } from "./message.js";

/**
 * Everything the sidecar serves but its two hot routes: an Express app answering a JSON 404
 * for an unknown route, and a JSON 500 should a handler throw. Routes the app does not call
 * on every request belong here.
 */
export function createFallback(): RequestListener {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ error: "not found" });
  });
  const onError: ErrorRequestHandler = (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    console.error("unexpected error:", err);
    res.status(500).json({ error: message(err) });
  };
  app.use(onError);
  return app;
}
