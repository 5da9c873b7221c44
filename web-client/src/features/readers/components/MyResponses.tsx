import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { formatShortDate } from "@/lib/dates";
import { ANSWER_ID, useFormAnswer } from "@/lib/form-answer";
import { useDisplayTimeZone } from "@/lib/time-zone";
import { readerKeys } from "@/features/readers/api/keys";
import {
  deleteMyResponse,
  getMyResponses,
  type MyResponse,
} from "@/features/readers/api/readers";
import { Notice, type NoticeText } from "./Notice";
import { useQuery } from "@/lib/use-query";

const STATUS: Record<MyResponse["status"], string> = {
  pending: "Waiting for review",
  approved: "Published under the article",
  rejected: "Not published",
};

export const RESPONSE_DELETED = "Your response is deleted.";

/**
 * The reader's responses to articles on `/account`: where each stands (the
 * desk's reason beside a rejected one), and a button to delete it, which is
 * also a plain post to the page.
 */
export function MyResponses() {
  const zone = useDisplayTimeZone();
  const queryClient = useQueryClient();
  const answer = useFormAnswer("delete-response");
  const [said, setSaid] = useState<NoticeText | null>(() =>
    answer
      ? answer.error
        ? { kind: "error", text: answer.error.message }
        : { kind: "info", text: RESPONSE_DELETED }
      : null,
  );
  const [busy, setBusy] = useState<string | null>(null);
  const query = useQuery({
    queryKey: readerKeys.responses,
    queryFn: ({ signal }) => getMyResponses(signal),
    staleTime: 0,
    retry: false,
  });
  const outcome = query.data;
  if (outcome === undefined) return null;

  async function remove(event: FormEvent, id: string) {
    event.preventDefault();
    setBusy(id);
    const done = await deleteMyResponse(id);
    setBusy(null);
    setSaid(
      done.ok
        ? { kind: "info", text: RESPONSE_DELETED }
        : { kind: "error", text: done.message },
    );
    await queryClient.invalidateQueries({ queryKey: readerKeys.responses });
  }

  const mine = outcome.ok ? outcome.data : [];
  return (
    <section className="account-panel" aria-labelledby="account-responses">
      <h2 id="account-responses" className="account-panel-title">
        Your responses
      </h2>
      {said ? (
        <Notice notice={said} id={answer ? ANSWER_ID : undefined} />
      ) : null}
      {!outcome.ok ? (
        <p role="alert">{outcome.message}</p>
      ) : mine.length === 0 ? (
        <p className="muted">
          You have not responded to an article yet. Every article has a
          Responses section at its end.
        </p>
      ) : (
        <ul className="my-responses">
          {mine.map((r) => (
            <li key={r.id} className={`my-response is-${r.status}`}>
              <p className="my-response-head">
                <span className="my-response-status">{STATUS[r.status]}</span>
                <span aria-hidden="true"> · </span>
                <time dateTime={r.created_at}>
                  {formatShortDate(r.created_at, zone)}
                </time>
              </p>
              <p className="my-response-article">
                {r.article_title && r.article_slug ? (
                  <a href={`/article/${r.article_slug}#responses`}>
                    {r.article_title}
                  </a>
                ) : (
                  "An article no longer published"
                )}
              </p>
              <p className="my-response-body">{r.body}</p>
              {r.status === "rejected" && r.reason ? (
                <p className="my-response-reason">
                  {`The editors' reason: ${r.reason}`}
                </p>
              ) : null}
              <form method="post" onSubmit={(e) => void remove(e, r.id)}>
                <input type="hidden" name="intent" value="delete-response" />
                <input type="hidden" name="response" value={r.id} />
                <button
                  type="submit"
                  className="btn btn-quiet btn-sm"
                  disabled={busy === r.id}
                  aria-label={`Delete your response of ${formatShortDate(r.created_at, zone)}`}
                >
                  Delete
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
