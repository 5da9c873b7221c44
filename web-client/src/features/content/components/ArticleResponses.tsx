import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { formatShortDate } from "@/lib/dates";
import {
  ANSWER_ID,
  answered,
  useFormAnswer,
  type FormAnswer,
} from "@/lib/form-answer";
import { useReaderName } from "@/lib/reader";
import { useDisplayTimeZone } from "@/lib/time-zone";
import { contentKeys } from "@/features/content/api/keys";
import {
  reportResponse,
  sendResponse,
  useResponses,
  type ShownResponse,
} from "@/features/content/api/responses";

/** The rules the server holds a response to (outreach's `checked_body`). */
const MIN_CHARS = 20;
const MAX_CHARS = 2000;

export const RESPONSE_SENT =
  "Thank you! Your response is waiting for review. It shows here once an editor approves it; you can follow it on your account page.";
export const RESPONSE_REPORTED =
  "Thank you for telling us. The editors look again at a response readers report.";

/** The text a reader typed, checked as the server will check it. */
function problemOf(text: string): string | null {
  const n = [...text.trim()].length;
  if (n < MIN_CHARS) return "A response is at least 20 characters.";
  if (n > MAX_CHARS) return "A response is at most 2,000 characters.";
  return null;
}

/** The form post's answer, as the notice it gives (`null`: none). */
function noticeOf(answer: FormAnswer | undefined, done: string): Notice | null {
  if (!answer) return null;
  if (answer.error) return { kind: "error", text: answer.error.message };
  return { kind: "info", text: done };
}

/**
 * Readers' responses under an article: the approved ones, oldest first, each
 * with the reader's first name and initial and its date; the form to send one
 * (a signed-in reader, while the article takes them); "Report" on each. Every
 * form is also a plain post to the page. What readers wrote is text: links
 * are never made links, and search engines are asked not to quote it.
 */
export function ArticleResponses({
  slug,
  title,
}: {
  slug: string;
  title: string;
}) {
  const data = useResponses(slug, true);
  const reader = useReaderName() !== null;
  const next = encodeURIComponent(`/article/${slug}#responses`);
  const reported = useFormAnswer("report");
  const zone = useDisplayTimeZone();
  if (data === null) return null;
  const count = data.responses.length;
  // A report posted without JavaScript that took the response off the page
  // (its third): said here, as the response is no longer.
  const reportedGone =
    reported !== undefined &&
    !data.responses.some((r) => r.id === answered(reported, "response"));
  return (
    <section
      id="responses"
      className="responses container"
      aria-labelledby="responses-title"
      data-nosnippet=""
    >
      <h2 id="responses-title" className="responses-title">
        {count === 0 ? "Responses" : `Responses (${count})`}
      </h2>
      {reportedGone ? (
        <ResponseNotice
          notice={noticeOf(reported, RESPONSE_REPORTED)}
          answers
        />
      ) : null}
      {count === 0 ? (
        <p className="muted">
          {data.open
            ? `No responses yet. What do you think about “${title}”?`
            : "No responses to this article."}
        </p>
      ) : (
        <ol className="response-list">
          {data.responses.map((r) => (
            <li key={r.id}>
              <ResponseItem
                response={r}
                reader={reader}
                zone={zone}
                answer={
                  answered(reported, "response") === r.id ? reported : undefined
                }
              />
            </li>
          ))}
        </ol>
      )}
      {!data.open ? (
        <p className="responses-closed">
          Responses to this article are closed.
        </p>
      ) : reader ? (
        <ResponseForm slug={slug} />
      ) : (
        <p className="responses-sign-in">
          <a href={`/login?next=${next}`}>Sign in</a> or{" "}
          <a href="/signup">create a free account</a> to respond. Every response
          is read by an editor before it appears.
        </p>
      )}
    </section>
  );
}

type Notice = { kind: "error" | "info"; text: string };

/** What a send or a report came to; `answers`: the page's no-JavaScript answer. */
function ResponseNotice({
  notice,
  answers,
}: {
  notice: Notice | null;
  answers: boolean;
}) {
  if (!notice) return null;
  return (
    <p
      id={answers ? ANSWER_ID : undefined}
      className={`response-notice response-notice-${notice.kind}`}
      role={notice.kind === "error" ? "alert" : "status"}
      tabIndex={-1}
    >
      {notice.text}
    </p>
  );
}

/** One response; `answer`: a report of it posted without JavaScript. */
function ResponseItem({
  response,
  reader,
  zone,
  answer,
}: {
  response: ShownResponse;
  reader: boolean;
  zone: string;
  answer: FormAnswer | undefined;
}) {
  const mine = answer !== undefined;
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const notice = mine
    ? noticeOf(answer, RESPONSE_REPORTED)
    : said
      ? { kind: "info" as const, text: said }
      : null;
  const paragraphs = response.body.split(/\n\s*\n/);

  async function report(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const sent = await reportResponse(response.id);
    setBusy(false);
    setSaid(sent.ok ? RESPONSE_REPORTED : sent.message);
  }

  return (
    <article className="response" aria-label={`Response by ${response.name}`}>
      <p className="response-meta">
        <strong>{response.name}</strong>
        <span aria-hidden="true"> · </span>
        <time dateTime={response.created_at}>
          {formatShortDate(response.created_at, zone)}
        </time>
      </p>
      <div className="response-body">
        {paragraphs.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
      {reader ? (
        <form method="post" className="response-report" onSubmit={report}>
          <input type="hidden" name="intent" value="report" />
          <input type="hidden" name="response" value={response.id} />
          <button
            type="submit"
            className="btn btn-quiet btn-sm"
            disabled={busy}
          >
            Report
          </button>
        </form>
      ) : null}
      <ResponseNotice notice={notice} answers={mine} />
    </article>
  );
}

function ResponseForm({ slug }: { slug: string }) {
  const queryClient = useQueryClient();
  const answer = useFormAnswer("respond");
  const [text, setText] = useState(() =>
    answer?.error ? answered(answer, "body") : "",
  );
  const [notice, setNotice] = useState(() => noticeOf(answer, RESPONSE_SENT));
  const [busy, setBusy] = useState(false);
  const count = [...text].length;

  async function send(event: FormEvent) {
    event.preventDefault();
    const problem = problemOf(text);
    if (problem) {
      setNotice({ kind: "error", text: problem });
      return;
    }
    setBusy(true);
    const sent = await sendResponse(slug, text);
    setBusy(false);
    if (sent.ok) {
      setText("");
      setNotice({ kind: "info", text: RESPONSE_SENT });
      void queryClient.invalidateQueries({
        queryKey: contentKeys.responses(slug),
      });
    } else {
      setNotice({ kind: "error", text: sent.message });
    }
  }

  return (
    <form method="post" className="response-form form" onSubmit={send}>
      <input type="hidden" name="intent" value="respond" />
      <div className="field">
        <label htmlFor="response-body">Your response</label>
        <p id="response-help" className="field-hint">
          20 to 2,000 characters, plain text. An editor reads every response
          before it appears; your first name and initial are shown with it.
        </p>
        <textarea
          id="response-body"
          name="body"
          rows={5}
          minLength={MIN_CHARS}
          maxLength={MAX_CHARS}
          required
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby="response-help response-count"
          aria-invalid={notice?.kind === "error" ? true : undefined}
        />
        <p id="response-count" className="field-hint response-count">
          {`${count} / ${MAX_CHARS}`}
        </p>
      </div>
      <ResponseNotice notice={notice} answers={answer !== undefined} />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? "Sending..." : "Send response"}
      </button>
    </form>
  );
}
