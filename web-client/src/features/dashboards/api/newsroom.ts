import { api, expectOk } from "@/lib/api-client";
import type {
  ArticleEvent,
  Notices,
  StaffArticle,
} from "@/features/dashboards/types";

const path = (id: string) => ({ params: { path: { id } } });

/** Ask for review: the draft goes in review, where only a reviewer changes it. */
export async function submitArticle(id: string): Promise<StaffArticle> {
  return expectOk(await api.POST("/v1/staff/articles/{id}/submit", path(id)));
}

/** Take one's piece out of review, back to draft. */
export async function withdrawArticle(id: string): Promise<StaffArticle> {
  return expectOk(await api.POST("/v1/staff/articles/{id}/withdraw", path(id)));
}

/** Send a piece in review back to its writer with a note. */
export async function requestChanges(
  id: string,
  note: string,
): Promise<StaffArticle> {
  return expectOk(
    await api.POST("/v1/staff/articles/{id}/request-changes", {
      ...path(id),
      body: { note },
    }),
  );
}

/** Approve a piece in review: published now (`publishAt` null) or scheduled. */
export async function approveArticle(
  id: string,
  publishAt: string | null,
): Promise<StaffArticle> {
  return expectOk(
    await api.POST("/v1/staff/articles/{id}/approve", {
      ...path(id),
      body: publishAt ? { publish_at: publishAt } : {},
    }),
  );
}

/** Approve (it goes live at once) or decline a writer's change to a live piece. */
export async function decidePendingChange(
  id: string,
  verb: "approve" | "decline",
  proposedAt: string,
  note: string | null = null,
): Promise<StaffArticle> {
  const body = note
    ? { proposed_at: proposedAt, note }
    : { proposed_at: proposedAt };
  return expectOk(
    verb === "approve"
      ? await api.POST("/v1/staff/articles/{id}/pending-change/approve", {
          ...path(id),
          body,
        })
      : await api.POST("/v1/staff/articles/{id}/pending-change/decline", {
          ...path(id),
          body,
        }),
  );
}

/** Pull a scheduled piece back to draft. */
export async function unscheduleArticle(id: string): Promise<StaffArticle> {
  return expectOk(
    await api.DELETE("/v1/staff/articles/{id}/schedule", path(id)),
  );
}

/** Pieces waiting for review, the longest waiting first. */
export async function listReviewQueue(
  signal?: AbortSignal,
): Promise<StaffArticle[]> {
  return expectOk(await api.GET("/v1/staff/review-queue", { signal }));
}

/** The body rendered as the article page will show it. */
export async function renderBody(content: string): Promise<string> {
  return expectOk(await api.POST("/v1/staff/preview", { body: { content } }))
    .html;
}

export async function getNotices(signal?: AbortSignal): Promise<Notices> {
  return expectOk(await api.GET("/v1/staff/me/notices", { signal }));
}

export async function setNotices(notices: Notices): Promise<Notices> {
  return expectOk(await api.PUT("/v1/staff/me/notices", { body: notices }));
}

/** An article's audit log, oldest first (reviewers). */
export async function listEvents(id: string): Promise<ArticleEvent[]> {
  return expectOk(await api.GET("/v1/staff/articles/{id}/events", path(id)));
}
