import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/Button";
import { useClearToasts, useToast } from "@/components/toast";
import { ApiFailure, failureMessage } from "@/lib/api-client";
import { useSession } from "@/lib/session";
import {
  launchPacks,
  uploadPack,
  type Packs,
} from "@/features/dashboards/api/admin";
import { useStaffChanges } from "@/features/dashboards/api/changes";
import { staffPacksQuery } from "@/features/dashboards/api/queries";
import { formatFileSize } from "@/features/dashboards/format";
import { AnnouncementPanel } from "./AnnouncementPanel";
import { useQuery } from "@/lib/use-query";

/** One pack of the list. */
type Pack = Packs["packs"][number];

/**
 * The educational packs: a PDF per pack, then the launch (readers and
 * educators download them from then on), then the launch email to the packs
 * list.
 */
export function PacksPanel() {
  const notify = useToast();
  const clearToasts = useClearToasts();
  const changes = useStaffChanges();
  const { expire } = useSession();
  const query = useQuery(staffPacksQuery());
  const packs = query.data ?? null;
  const [announcing, setAnnouncing] = useState(false);

  /** A failed attempt, said in a toast titled `failure`. */
  function failed(failure: string, cause: unknown) {
    notify({
      title: failure,
      description: failureMessage(cause) || undefined,
      variant: "destructive",
    });
    if (cause instanceof ApiFailure && cause.signedOut) expire();
  }

  // Each one, once done, makes the packs stale: the admin's list, and the
  // public copies (the packs page, the educators' dashboard).
  const launching = useMutation({
    mutationFn: () => launchPacks(),
    // A new attempt makes the last error stale.
    onMutate: () => clearToasts(),
    onSuccess: () => {
      notify({ title: "Packs launched." });
      setAnnouncing(true);
      return changes.packs();
    },
    onError: (cause) => failed("Failed to launch the packs", cause),
  });
  const uploading = useMutation({
    mutationFn: ({ pack, file }: { pack: Pack; file: File }) =>
      uploadPack(pack.id, file),
    onMutate: () => clearToasts(),
    onSuccess: (_packs, { pack }) => {
      notify({ title: `“${pack.title}” uploaded.` });
      return changes.packs();
    },
    onError: (cause) => failed("Failed to upload the pack", cause),
  });
  const busy = launching.isPending
    ? "launch"
    : uploading.isPending
      ? uploading.variables.pack.id
      : null;

  const launched = packs !== null && packs.launched_at != null;
  return (
    <section aria-labelledby="packs-heading" className="dashboard-block">
      <div className="block-head">
        <h2 id="packs-heading" className="dashboard-subtitle">
          Educational Packs
        </h2>
        {packs !== null && !launched && (
          <Button
            disabled={busy !== null}
            onClick={() => {
              if (
                !window.confirm(
                  "Launch the packs? Readers and educators can download them from now on.",
                )
              )
                return;
              launching.mutate();
            }}
          >
            Launch packs
          </Button>
        )}
        {launched && (
          <Button variant="secondary" onClick={() => setAnnouncing(true)}>
            Announce the launch
          </Button>
        )}
      </div>
      <p className="muted">
        {launched
          ? "Launched: readers and educators download these files."
          : "Upload a PDF for each pack, then launch them; until then nothing is public."}
      </p>
      {packs === null ? (
        <p className="status-text" role="status">
          {query.isError ? "Failed to fetch packs." : "Loading packs..."}
        </p>
      ) : (
        <ul className="pack-list">
          {packs.packs.map((pack) => (
            <li key={pack.id} className="pack-item">
              <div>
                <h3 className="pack-title">{pack.title}</h3>
                <p className="muted">
                  {pack.level} ·{" "}
                  {pack.file_url != null && pack.size_bytes != null ? (
                    <a
                      href={pack.file_url}
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      PDF, {formatFileSize(pack.size_bytes)}
                    </a>
                  ) : (
                    "no file yet"
                  )}
                </p>
              </div>
              <label className="btn btn-secondary btn-sm">
                {busy === pack.id
                  ? "Uploading…"
                  : pack.file_url
                    ? "Replace PDF"
                    : "Upload PDF"}
                <span className="sr-only"> for {pack.title}</span>
                <input
                  type="file"
                  accept=".pdf,application/pdf"
                  className="sr-only"
                  disabled={busy !== null}
                  onChange={(event) => {
                    const file = event.target.files?.[0];
                    event.target.value = "";
                    if (!file) return;
                    uploading.mutate({ pack, file });
                  }}
                />
              </label>
            </li>
          ))}
        </ul>
      )}
      {announcing && launched && (
        <AnnouncementPanel
          what={{ kind: "packs" }}
          onDone={() => setAnnouncing(false)}
        />
      )}
    </section>
  );
}
