import type { components } from "@/api/schema";
import { api, expectOk } from "@/lib/api-client";

export type QueuedResponse = components["schemas"]["QueuedResponse"];

/** GET /api/v1/staff/responses: the responses waiting for the desk, oldest first. */
export async function listResponseQueue(
  signal?: AbortSignal,
): Promise<QueuedResponse[]> {
  return expectOk(await api.GET("/v1/staff/responses", { signal }));
}

/** What the desk decides about a waiting response. */
export type Decision =
  { kind: "approve" } | { kind: "reject"; reason: string } | { kind: "block" };

/** POST /api/v1/staff/responses/{id}/{approve,reject,block}. */
export async function decideResponse(
  id: string,
  decision: Decision,
): Promise<void> {
  const path = { params: { path: { id } } };
  switch (decision.kind) {
    case "approve":
      expectOk(await api.POST("/v1/staff/responses/{id}/approve", path));
      return;
    case "reject": {
      const reason = decision.reason.trim();
      expectOk(
        await api.POST("/v1/staff/responses/{id}/reject", {
          ...path,
          body: reason ? { reason } : {},
        }),
      );
      return;
    }
    case "block":
      expectOk(await api.POST("/v1/staff/responses/{id}/block", path));
      return;
  }
}

/**
 * The newest published articles (the last 50: responses close 30 days after
 * publishing by default, so the ones that take them are among these).
 */
export async function recentArticles(
  signal?: AbortSignal,
): Promise<components["schemas"]["ArticleCard"][]> {
  const list = expectOk(
    await api.GET("/v1/articles", {
      params: { query: { sort: "newest", limit: 50 } },
      signal,
    }),
  );
  return list.items;
}

/** Whether the published article at `slug` takes responses now. */
export async function responsesOpen(
  slug: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const answer = expectOk(
    await api.GET("/v1/articles/{slug}/responses", {
      params: { path: { slug } },
      signal,
    }),
  );
  return answer.open;
}

/** PUT /api/v1/staff/articles/{id}/responses: closes or opens them again. */
export async function setResponsesOpen(
  articleId: string,
  open: boolean,
): Promise<void> {
  expectOk(
    await api.PUT("/v1/staff/articles/{id}/responses", {
      params: { path: { id: articleId } },
      body: { open },
    }),
  );
}
