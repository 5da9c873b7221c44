import { useMutation } from "@tanstack/react-query";
import { useRef, useState, type ChangeEvent } from "react";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { ApiFailure, failureMessage } from "@/lib/api-client";
import { useSession } from "@/lib/session";
import { uploadMagazine } from "@/features/dashboards/api/admin";
import { useStaffChanges } from "@/features/dashboards/api/changes";
import { looksLikePdf } from "@/features/dashboards/format";
import type { Magazine } from "@/features/dashboards/types";
import { MagazinesTable } from "./MagazinesTable";
import { AnnouncementPanel } from "./AnnouncementPanel";
import { PublishIssueForm } from "./PublishIssueForm";

const NOT_PDF = "Please upload a PDF file.";
const UPLOAD_FAILED = "Failed to upload magazine.";

/**
 * Spec §2 Admin dashboard: the PDF upload (with a progress bar) and the table
 * of uploaded issues. The server checks the file's content and size; the
 * check here only spares a pointless upload.
 */
export function MagazinesPanel({
  magazines,
}: {
  magazines: Magazine[] | null;
}) {
  const notify = useToast();
  const changes = useStaffChanges();
  const { expire } = useSession();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState(0);
  const upload = useMutation({
    mutationFn: (file: File) => uploadMagazine(file, setProgress),
    onMutate: () => setProgress(0),
    onSuccess: () => {
      notify({ title: "Magazine uploaded successfully!" });
      return changes.magazines();
    },
    onError: (cause) => {
      const message = failureMessage(cause);
      notify({
        title: UPLOAD_FAILED,
        description: message || undefined,
        variant: "destructive",
      });
      if (cause instanceof ApiFailure && cause.signedOut) expire();
    },
  });
  // The issue whose publication form, or whose launch email, is open.
  const [open, setOpen] = useState<{
    id: string;
    what: "publish" | "announce";
  } | null>(null);
  const chosen = magazines?.find((m) => m.id === open?.id) ?? null;

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!looksLikePdf(file.name, file.type)) {
      notify({
        title: "Invalid file",
        description: NOT_PDF,
        variant: "destructive",
      });
      return;
    }
    upload.mutate(file);
  }

  const uploading = upload.isPending;
  const percent = Math.round(progress * 100);
  return (
    <section aria-labelledby="magazines-heading" className="dashboard-block">
      <div className="block-head">
        <h2 id="magazines-heading" className="dashboard-subtitle">
          Magazines ({magazines?.length ?? 0})
        </h2>
        <Button
          onClick={() => input.current?.click()}
          disabled={uploading}
          aria-describedby="magazine-hint"
        >
          Upload Magazine (PDF)
        </Button>
        <input
          ref={input}
          type="file"
          accept=".pdf,application/pdf"
          className="sr-only"
          tabIndex={-1}
          aria-label="Magazine PDF"
          onChange={choose}
        />
      </div>
      <p id="magazine-hint" className="muted">
        The file name, without “.pdf”, becomes the issue’s title; you can rename
        it afterwards. Uploaded issues stay private until you publish them with
        a date, a description and a cover.
      </p>
      {uploading ? (
        <div className="upload-progress" role="status">
          <label htmlFor="magazine-progress">Uploading… {percent}%</label>
          <progress id="magazine-progress" max={100} value={percent} />
        </div>
      ) : null}
      {magazines === null ? (
        <p className="status-text" role="status">
          Loading magazines...
        </p>
      ) : magazines.length === 0 ? (
        <div className="empty-state">
          <p className="empty-title">No magazines yet</p>
          <p className="muted">Upload the first issue as a PDF.</p>
        </div>
      ) : (
        <MagazinesTable
          magazines={magazines}
          onPublish={(magazine) =>
            setOpen({ id: magazine.id, what: "publish" })
          }
          onAnnounce={(magazine) =>
            setOpen({ id: magazine.id, what: "announce" })
          }
        />
      )}
      {chosen !== null && open?.what === "publish" && (
        <PublishIssueForm
          key={chosen.id}
          magazine={chosen}
          onDone={(published) =>
            setOpen(published ? { id: chosen.id, what: "announce" } : null)
          }
        />
      )}
      {chosen !== null && open?.what === "announce" && (
        <AnnouncementPanel
          key={chosen.id}
          what={{ kind: "issue", magazine: chosen }}
          onDone={() => setOpen(null)}
        />
      )}
    </section>
  );
}
