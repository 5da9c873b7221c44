import { queryOptions } from "@tanstack/react-query";
import { ApiFailure, failureMessage } from "@/lib/api-client";
import { useQueryFailure } from "@/lib/query-client";
import { useSession } from "@/lib/session";
import { renderPreview } from "./editor-api";
import { editorKeys } from "./keys";
import { useQuery } from "@/lib/use-query";

export type Preview =
  | { kind: "empty" }
  | { kind: "loading" }
  | { kind: "ready"; html: string }
  | { kind: "failed"; message: string };

/** The same text always renders the same: a preview is asked for once. */
export const previewQuery = (content: string) =>
  queryOptions({
    queryKey: editorKeys.preview(content),
    queryFn: () => renderPreview(content),
    staleTime: Infinity,
  });

/**
 * The server's preview of `content`, the text shown when Preview was chosen
 * (`null` while writing: nothing is asked then, whatever is typed). A 401
 * signs the user out.
 */
export function usePreview(content: string | null): Preview {
  const { expire } = useSession();
  const wanted = content !== null && content.trim() !== "";
  const query = previewQuery(content ?? "");
  const { data, error, isError, isFetching } = useQuery({
    ...query,
    enabled: wanted,
  });
  useQueryFailure(query.queryKey, (cause) => {
    if (cause instanceof ApiFailure && cause.signedOut) expire();
  });
  if (!wanted) return { kind: "empty" };
  if (data !== undefined) return { kind: "ready", html: data };
  if (isError && !isFetching) {
    return {
      kind: "failed",
      message: failureMessage(error) || "Unknown error",
    };
  }
  return { kind: "loading" };
}
