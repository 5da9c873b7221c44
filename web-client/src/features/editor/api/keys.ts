import { STAFF_QUERIES } from "@/lib/query-client";

/** Query keys of the editor (staff data: a sign-out removes them). */
export const editorKeys = {
  /** POST /v1/staff/preview: the server's rendering of `content`. */
  preview: (content: string) => [STAFF_QUERIES, "preview", content] as const,
};
