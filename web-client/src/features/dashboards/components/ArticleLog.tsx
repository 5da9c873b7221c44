import { useEffect, useState } from "react";
import { failureMessage } from "@/lib/api-client";
import { formatWhen, STAGE_LABELS } from "@/lib/newsroom";
import { listEvents } from "@/features/dashboards/api/newsroom";
import type { ArticleEvent } from "@/features/dashboards/types";

const ACTIONS: Record<ArticleEvent["action"], string> = {
  create: "created it",
  submit: "submitted it for review",
  withdraw: "withdrew it from review",
  request_changes: "requested changes",
  approve: "approved it",
  publish: "published it",
  schedule: "scheduled it",
  unschedule: "pulled it back from the schedule",
  unpublish: "took it back to draft",
  scheduled_publish: "published it at its scheduled time",
  propose_change: "proposed a change to the live piece",
  approve_change: "approved a change: live now",
  decline_change: "dropped a proposed change",
};

/** Who moved an article from which stage to which, and when (reviewers). */
export function ArticleLog({ articleId }: { articleId: string }) {
  const [events, setEvents] = useState<ArticleEvent[] | null>(null);
  const [problem, setProblem] = useState("");

  useEffect(() => {
    let live = true;
    listEvents(articleId).then(
      (list) => live && setEvents(list),
      (cause: unknown) =>
        live && setProblem(failureMessage(cause) || "Unknown error"),
    );
    return () => {
      live = false;
    };
  }, [articleId]);

  if (problem) {
    return (
      <p className="field-error" role="alert">
        Failed to load the log: {problem}
      </p>
    );
  }
  if (events === null) {
    return (
      <p className="status-text" role="status">
        Loading the log...
      </p>
    );
  }
  return (
    <ol className="article-log">
      {events.map((e, i) => (
        <li key={i}>
          <time dateTime={e.at}>{formatWhen(e.at)}</time>{" "}
          <strong>{e.actor_name ?? "The schedule"}</strong> {ACTIONS[e.action]}
          {e.from_stage
            ? ` (${STAGE_LABELS[e.from_stage]} → ${STAGE_LABELS[e.to_stage]})`
            : ` (${STAGE_LABELS[e.to_stage]})`}
          {e.publish_at && e.action !== "scheduled_publish"
            ? ` for ${formatWhen(e.publish_at)}`
            : ""}
          {e.note ? <q className="log-note">{e.note}</q> : null}
        </li>
      ))}
    </ol>
  );
}
