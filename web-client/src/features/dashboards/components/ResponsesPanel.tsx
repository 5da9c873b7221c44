import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useContext, useId, useState } from "react";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { formatWhen } from "@/lib/newsroom";
import { PublicCopiesContext } from "@/features/dashboards/api/changes";
import { staffKeys } from "@/features/dashboards/api/keys";
import {
  decideResponse,
  listResponseQueue,
  recentArticles,
  responsesOpen,
  setResponsesOpen,
  type Decision,
  type QueuedResponse,
} from "@/features/dashboards/api/responses";
import { useReportFailure } from "@/features/dashboards/api/use-staff-data";
import { useQuery } from "@/lib/use-query";

const STATUS = {
  pending: "waiting",
  approved: "approved",
  rejected: "rejected",
} as const;

/** What each decision is called when it is done, and when it fails. */
const DONE: Record<Decision["kind"], [string, string]> = {
  approve: ["Response approved", "Failed to approve the response"],
  reject: ["Response rejected", "Failed to reject the response"],
  block: ["Reader blocked", "Failed to block the reader"],
};

/**
 * Readers' responses waiting for the desk (content director, admin): each
 * with its article, how many readers reported it, and the reader's earlier
 * responses; approved, rejected with a reason the reader sees, or the reader
 * blocked. Below, an article's responses are closed or opened again.
 */
export function ResponsesPanel() {
  const headingId = useId();
  const report = useReportFailure();
  const query = useQuery({
    queryKey: staffKeys.responseQueue,
    queryFn: ({ signal }) => listResponseQueue(signal),
  });
  const [reported, setReported] = useState(false);
  if (query.error && !reported) {
    setReported(true);
    report("Failed to fetch responses", query.error);
  }
  const queue = query.data ?? null;
  return (
    <section
      aria-labelledby={headingId}
      className="review-queue responses-desk"
    >
      <h2 id={headingId} className="dashboard-subtitle">
        Readers&rsquo; responses ({queue?.length ?? 0})
      </h2>
      {queue === null ? (
        <p className="status-text" role="status">
          Loading responses...
        </p>
      ) : queue.length === 0 ? (
        <p className="muted">No response is waiting for review.</p>
      ) : (
        <ul className="review-list">
          {queue.map((r) => (
            <QueuedItem key={r.id} response={r} />
          ))}
        </ul>
      )}
      <ClosingForm />
    </section>
  );
}

function QueuedItem({ response }: { response: QueuedResponse }) {
  const queryClient = useQueryClient();
  const notify = useToast();
  const report = useReportFailure();
  const copies = useContext(PublicCopiesContext);
  const [reason, setReason] = useState("");
  const reasonId = useId();
  const deciding = useMutation({
    mutationFn: (decision: Decision) => decideResponse(response.id, decision),
    onSuccess: async (_, decision) => {
      notify({ title: DONE[decision.kind][0] });
      copies.articles();
      await queryClient.invalidateQueries({
        queryKey: staffKeys.responseQueue,
      });
    },
    onError: (cause, decision) => report(DONE[decision.kind][1], cause),
  });
  const busy = deciding.isPending;
  return (
    <li className="review-item response-item">
      <p className="muted">
        <strong>{response.reader_name}</strong>
        {" on "}
        {response.article_title && response.article_slug ? (
          <a
            href={`/article/${response.article_slug}#responses`}
            target="_blank"
            rel="noreferrer"
          >
            {response.article_title}
          </a>
        ) : (
          "an article no longer published"
        )}
        {` · ${formatWhen(response.created_at)}`}
      </p>
      {response.reports > 0 ? (
        <p className="response-reported" role="note">
          {`Back for review: reported by ${response.reports} readers after it was approved.`}
        </p>
      ) : null}
      <blockquote className="response-text">{response.body}</blockquote>
      {response.earlier.length > 0 ? (
        <details className="response-earlier">
          <summary>{`Their earlier responses (${response.earlier.length})`}</summary>
          <ul>
            {response.earlier.map((e, i) => (
              <li key={i}>
                <p className="muted">
                  {`${STATUS[e.status]} · ${formatWhen(e.created_at)}${e.article_title ? ` · ${e.article_title}` : ""}`}
                </p>
                <p className="response-text">{e.body}</p>
              </li>
            ))}
          </ul>
        </details>
      ) : (
        <p className="muted">Their first response.</p>
      )}
      <div className="field">
        <label htmlFor={reasonId}>
          Reason, if you reject it (the reader sees it)
        </label>
        <input
          id={reasonId}
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value.replace(/[\r\n]/g, " "))}
        />
      </div>
      <div className="row-actions">
        <Button
          size="sm"
          disabled={busy}
          onClick={() => deciding.mutate({ kind: "approve" })}
        >
          Approve
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={busy}
          onClick={() => deciding.mutate({ kind: "reject", reason })}
        >
          Reject
        </Button>
        <Button
          size="sm"
          variant="quiet"
          disabled={busy}
          onClick={() => {
            if (
              window.confirm(
                `Block ${response.reader_name} from responding? This response is rejected too.`,
              )
            )
              deciding.mutate({ kind: "block" });
          }}
        >
          Block reader
        </Button>
      </div>
    </li>
  );
}

/** Closes (or opens again) the responses of one published article. */
function ClosingForm() {
  const queryClient = useQueryClient();
  const notify = useToast();
  const report = useReportFailure();
  const copies = useContext(PublicCopiesContext);
  const articles = useQuery({
    queryKey: staffKeys.recentArticles,
    queryFn: ({ signal }) => recentArticles(signal),
  });
  const published = articles.data ?? [];
  const [chosen, setChosen] = useState("");
  const article = published.find((a) => a.id === chosen);
  const selectId = useId();
  const open = useQuery({
    queryKey: staffKeys.responsesOpen(article?.slug ?? ""),
    queryFn: ({ signal }) => responsesOpen(article?.slug ?? "", signal),
    enabled: article !== undefined,
  });
  const toggling = useMutation({
    mutationFn: (to: boolean) => setResponsesOpen(chosen, to),
    onSuccess: async (_, to) => {
      notify({ title: to ? "Responses opened" : "Responses closed" });
      copies.articles();
      await queryClient.invalidateQueries({
        queryKey: staffKeys.responsesOpen(article?.slug ?? ""),
      });
    },
    onError: (cause) =>
      report("Failed to change the article's responses", cause),
  });
  return (
    <div className="responses-closing">
      <h3 className="review-title">Responses per article</h3>
      <div className="field">
        <label htmlFor={selectId}>Published article</label>
        <select
          id={selectId}
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
        >
          <option value="">Choose an article…</option>
          {published.map((a) => (
            <option key={a.id} value={a.id}>
              {a.title}
            </option>
          ))}
        </select>
      </div>
      {article && open.data !== undefined ? (
        <div className="row-actions responses-open">
          <span role="status">
            {open.data
              ? "It takes responses now."
              : "It takes no responses (closed, or past its window)."}
          </span>
          <Button
            size="sm"
            variant="secondary"
            disabled={toggling.isPending}
            onClick={() => toggling.mutate(!open.data)}
          >
            {open.data ? "Close responses" : "Open responses"}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
