import { api, expectOk } from "@/lib/api-client";
import type { StaffArticle, Writer } from "@/features/dashboards/types";

/** A writer's own articles, or all of them for the content director; newest first. */
export async function listArticles(
  signal?: AbortSignal,
): Promise<StaffArticle[]> {
  return expectOk(await api.GET("/v1/staff/articles", { signal }));
}

/** The one-click publish of a draft (only status and update time change). */
export async function publishArticle(id: string): Promise<StaffArticle> {
  return expectOk(
    await api.POST("/v1/staff/articles/{id}/publish", {
      params: { path: { id } },
    }),
  );
}

export async function deleteArticle(id: string): Promise<void> {
  expectOk(
    await api.DELETE("/v1/staff/articles/{id}", { params: { path: { id } } }),
  );
}

/** The writers the content director may write on behalf of. */
export async function listWriters(signal?: AbortSignal): Promise<Writer[]> {
  return expectOk(await api.GET("/v1/staff/writers", { signal }));
}
