import { queryOptions } from "@tanstack/react-query";
import type { components } from "@/api/schema";
import { api, ApiFailure, errorMessage } from "@/lib/api-client";
import { contentKeys } from "./keys";
import { useQuery } from "@/lib/use-query";

export type ArticleResponses = components["schemas"]["ArticleResponses"];
export type ShownResponse = components["schemas"]["ShownResponse"];

/** GET /api/v1/articles/{slug}/responses; rejects on an error status. */
export async function fetchResponses(
  slug: string,
  signal?: AbortSignal,
): Promise<ArticleResponses> {
  const { data, error, response } = await api.GET(
    "/v1/articles/{slug}/responses",
    { params: { path: { slug } }, signal },
  );
  if (data) return data;
  throw new ApiFailure(
    response.status,
    errorMessage(error) || `Responses request failed (${response.status})`,
  );
}

export const responsesQuery = (slug: string) =>
  queryOptions({
    queryKey: contentKeys.responses(slug),
    queryFn: ({ signal }) => fetchResponses(slug, signal),
  });

/** The responses under the article at `slug`; `null` while loading or failed. */
export function useResponses(
  slug: string,
  enabled: boolean,
): ArticleResponses | null {
  const { data } = useQuery({ ...responsesQuery(slug), enabled });
  return data ?? null;
}

/** What a reader's send or report came to: done, or the server's words. */
export type Sent = { ok: true; data: unknown } | { ok: false; message: string };

const UNREACHABLE =
  "Something went wrong. Please check your connection and try again.";

function refusal(status: number, error: unknown): Sent {
  if (status === 401) {
    return { ok: false, message: "Please sign in to respond." };
  }
  const message = errorMessage(error);
  return {
    ok: false,
    message: status < 500 && message ? message : UNREACHABLE,
  };
}

/** POST /api/v1/articles/{slug}/responses: kept for the desk, or refused. */
export async function sendResponse(slug: string, body: string): Promise<Sent> {
  try {
    const { data, error, response } = await api.POST(
      "/v1/articles/{slug}/responses",
      { params: { path: { slug } }, body: { body } },
    );
    return data ? { ok: true, data } : refusal(response.status, error);
  } catch {
    return { ok: false, message: UNREACHABLE };
  }
}

/** POST /api/v1/responses/{id}/report. */
export async function reportResponse(id: string): Promise<Sent> {
  try {
    const { error, response } = await api.POST("/v1/responses/{id}/report", {
      params: { path: { id } },
    });
    return response.ok
      ? { ok: true, data: null }
      : refusal(response.status, error);
  } catch {
    return { ok: false, message: UNREACHABLE };
  }
}
