import { api, expectOk } from "@/lib/api-client";
import type {
  ArticleInput,
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
