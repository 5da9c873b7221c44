import { useMutation } from "@tanstack/react-query";
import { Button } from "@/components/Button";
import { failureMessage } from "@/lib/api-client";
import { useStaffChanges } from "@/features/dashboards/api/changes";
import { staffKeys } from "@/features/dashboards/api/keys";
import {
  previewAnnouncement,
  previewPacksAnnouncement,
  sendAnnouncement,
  sendPacksAnnouncement,
  type AnnouncementProgress,
} from "@/features/dashboards/api/admin";
import type { Magazine } from "@/features/dashboards/types";
import { useQuery } from "@/lib/use-query";

/** What is announced: a published issue, or the packs' launch. */
export type Announced =
  { kind: "issue"; magazine: Magazine } | { kind: "packs" };

/** Still going: recipients left to queue, or queued messages not sent or failed yet. */
function inFlight(p: AnnouncementProgress): boolean {
  return !p.finished || p.sent + p.failed < p.queued;
}

/**
 * The launch email of a published issue: a preview and the number of
 * subscribers, then "Send"; then its progress (queued, sent, failed), read
 * from the server every two seconds while it goes on, so it survives a
 * reload or a restart of the server.
 */
export function AnnouncementPanel({
  what,
  onDone,
}: {
  what: Announced;
  onDone: () => void;
}) {
  const changes = useStaffChanges();
  const ref = what.kind === "issue" ? what.magazine.id : "packs";
  const query = useQuery({
    queryKey: staffKeys.announcement(ref),
    queryFn: ({ signal }) =>
      what.kind === "issue"
        ? previewAnnouncement(what.magazine.id, signal)
        : previewPacksAnnouncement(signal),
    refetchInterval: (q) => {
      const progress = q.state.data?.progress;
      return progress && inFlight(progress) ? 2000 : false;
    },
  });
  const sending = useMutation({
    mutationFn: () =>
      what.kind === "issue"
        ? sendAnnouncement(what.magazine.id)
        : sendPacksAnnouncement(),
    // Its progress is read from the preview from now on.
    onSuccess: () => changes.announcementSent(ref),
  });
  const error = sending.isError
    ? failureMessage(sending.error) || "The announcement could not be sent."
    : "";

  const id = `announce-${ref}`;
  const title =
    what.kind === "issue"
      ? `Announce “${what.magazine.title}”`
      : "Announce the packs' launch";
  const list = what.kind === "issue" ? "magazine" : "packs";
  const preview = query.data;
  const progress = preview?.progress;
  return (
    <section
      className="dashboard-block publish-block"
      aria-labelledby={`${id}-heading`}
    >
      <h3 id={`${id}-heading`} className="dashboard-subtitle">
        {title}
      </h3>
      {preview === undefined ? (
        <p className="status-text" role="status">
          {query.isError ? failureMessage(query.error) : "Loading..."}
        </p>
      ) : (
        <>
          <p>
            To the {list} list:{" "}
            <strong>
              {preview.recipients}{" "}
              {preview.recipients === 1 ? "subscriber" : "subscribers"}
            </strong>{" "}
            now.
          </p>
          <div className="announcement-preview">
            <p className="announcement-subject">
              <span className="muted">Subject:</span> {preview.subject}
            </p>
            <pre className="announcement-body">{preview.body}</pre>
          </div>
          {progress ? (
            <div role="status" aria-live="polite">
              <p className="announcement-progress">
                Queued {progress.queued} of {progress.total} · sent{" "}
                {progress.sent} · failed {progress.failed}
              </p>
              <progress
                max={Math.max(progress.total, 1)}
                value={progress.sent + progress.failed}
                aria-label="Announcement sent"
              />
              <p className="muted">
                {inFlight(progress)
                  ? "Sending… you can leave this page; it goes on."
                  : "Done. Each subscriber got it once."}
              </p>
            </div>
          ) : null}
          {error !== "" && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <div className="row-actions">
            {!progress && (
              <Button
                disabled={sending.isPending || preview.recipients === 0}
                onClick={() => sending.mutate()}
              >
                {sending.isPending
                  ? "Sending..."
                  : `Send to ${preview.recipients} ${
                      preview.recipients === 1 ? "subscriber" : "subscribers"
                    }`}
              </Button>
            )}
            <Button variant="quiet" onClick={onDone}>
              Close
            </Button>
          </div>
        </>
      )}
    </section>
  );
}
