import { api, expectOk } from "@/lib/api-client";
import type {
  ArticleInput,
  RevisionDiff,
  RevisionSummary,
  StaffArticle,
  UploadedCover,
} from "@/features/editor/types";

/** POST /v1/staff/articles (new) or PUT /v1/staff/articles/{id}. */
export async function saveArticle(
  id: string | null,
  body: ArticleInput,
): Promise<StaffArticle> {
  return id === null
    ? expectOk(await api.POST("/v1/staff/articles", { body }))
    : expectOk(
        await api.PUT("/v1/staff/articles/{id}", {
          params: { path: { id } },
          body,
        }),
      );
}

/** The body rendered (and sanitised) by the server exactly as the article page shows it. */
export async function renderPreview(content: string): Promise<string> {
  const data = expectOk(
    await api.POST("/v1/staff/preview", { body: { content } }),
  );
  return data.html;
}

export async function uploadCover(file: File): Promise<UploadedCover> {
  return expectOk(
    await api.POST("/v1/staff/covers", {
      // The contract types the binary part as a string; the browser sends the File.
      body: { file: file as unknown as string },
      bodySerializer: (body) => {
        const form = new FormData();
        form.append("file", body.file);
        return form;
      },
    }),
  );
}

const path = (id: string) => ({ params: { path: { id } } });

/** The article as saved now (someone else's newer version, after a conflict). */
export async function getArticle(id: string): Promise<StaffArticle> {
  return expectOk(await api.GET("/v1/staff/articles/{id}", path(id)));
}

/** Ask for review: the draft goes in review. */
export async function submitForReview(id: string): Promise<StaffArticle> {
  return expectOk(await api.POST("/v1/staff/articles/{id}/submit", path(id)));
}

/** The article's saved revisions, newest first. */
export async function listRevisions(id: string): Promise<RevisionSummary[]> {
  return expectOk(await api.GET("/v1/staff/articles/{id}/revisions", path(id)));
}

/** What changed from revision `number` to the text saved now. */
export async function revisionDiff(
  id: string,
  number: number,
): Promise<RevisionDiff> {
  return expectOk(
    await api.GET("/v1/staff/articles/{id}/revisions/{number}/diff", {
      params: { path: { id, number } },
    }),
  );
}

/** Makes revision `number`'s text the article's newest revision. */
export async function restoreRevision(
  id: string,
  number: number,
  baseVersion: number | null,
): Promise<StaffArticle> {
  return expectOk(
    await api.POST("/v1/staff/articles/{id}/revisions/{number}/restore", {
      params: { path: { id, number } },
      body: baseVersion === null ? {} : { base_version: baseVersion },
    }),
  );
}

/** Takes back one's change to a live piece that waits for review. */
export async function takeBackChange(
  id: string,
  proposedAt: string,
): Promise<StaffArticle> {
  return expectOk(
    await api.POST("/v1/staff/articles/{id}/pending-change/decline", {
      ...path(id),
      body: { proposed_at: proposedAt },
    }),
  );
}
