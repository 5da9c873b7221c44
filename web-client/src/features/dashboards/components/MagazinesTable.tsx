import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/Button";
import { useClearToasts, useToast } from "@/components/toast";
import { formatShortDate } from "@/lib/dates";
import { useDisplayTimeZone } from "@/lib/time-zone";
import { settle, useForm } from "@/lib/use-form";
import {
  deleteMagazine,
  renameMagazine,
  unpublishMagazine,
} from "@/features/dashboards/api/admin";
import { useStaffChanges } from "@/features/dashboards/api/changes";
import {
  useReportFailure,
  useStaffProblem,
} from "@/features/dashboards/api/use-staff-data";
import { formatFileSize } from "@/features/dashboards/format";
import type { Magazine } from "@/features/dashboards/types";
import { DataTable } from "./DataTable";

interface Props {
  magazines: readonly Magazine[];
  /** Opens the publication form of an issue. */
  onPublish: (magazine: Magazine) => void;
  /** Opens the launch email of a published issue. */
  onAnnounce: (magazine: Magazine) => void;
}

/**
 * Title, Upload Date, Size and whether readers see it, with a View link (new
 * tab), publish (or edit the publication), take back, rename and delete.
 */
export function MagazinesTable({ magazines, onPublish, onAnnounce }: Props) {
  const zone = useDisplayTimeZone();
  const notify = useToast();
  const clearToasts = useClearToasts();
  const report = useReportFailure();
  const staffProblem = useStaffProblem();
  const changes = useStaffChanges();
  // The issue whose title is being edited, and the form that renames it.
  const [editingId, setEditingId] = useState<string | null>(null);
  const renaming = useForm({
    initial: { title: "" },
    send: ({ title }, id: string) => {
      // A new attempt makes the last error stale: it goes, whatever this one says.
      clearToasts();
      return settle(renameMagazine(id, title));
    },
    refused: ({ cause }) => staffProblem("Failed to rename magazine", cause),
    onDone: () => {
      setEditingId(null);
      notify({ title: "Magazine renamed." });
    },
    invalidates: () => changes.magazines(),
  });
  const unpublishing = useMutation({
    mutationFn: (magazine: Magazine) => unpublishMagazine(magazine.id),
    onMutate: () => clearToasts(),
    onSuccess: () => {
      notify({ title: "Issue taken back: readers no longer see it." });
      return changes.magazines();
    },
    onError: (cause) => report("Failed to unpublish magazine", cause),
  });
  const deleting = useMutation({
    mutationFn: (magazine: Magazine) => deleteMagazine(magazine.id),
    onMutate: () => clearToasts(),
    onSuccess: () => {
      notify({ title: "Magazine deleted." });
      return changes.magazines();
    },
    onError: (cause) => report("Failed to delete magazine", cause),
  });
  const busyId = renaming.busy
    ? (renaming.sending ?? null)
    : unpublishing.isPending
      ? unpublishing.variables.id
      : deleting.isPending
        ? deleting.variables.id
        : null;

  function remove(magazine: Magazine) {
    if (!window.confirm(`Are you sure you want to delete “${magazine.title}”?`))
      return;
    deleting.mutate(magazine);
  }

  return (
    <DataTable
      labelledBy={"magazines-heading"}
      columns={["Title", "Upload Date", "Size", "Status"]}
    >
      {magazines.map((magazine) => {
        const busy = busyId === magazine.id;
        const editing = editingId === magazine.id;
        return (
          <tr key={magazine.id}>
            <th scope="row" className="data-title">
              {editing ? (
                <form
                  className="inline-form"
                  onSubmit={(event) => renaming.submit(event, magazine.id)}
                >
                  <label className="sr-only" htmlFor={`title-${magazine.id}`}>
                    New title for {magazine.title}
                  </label>
                  <input
                    id={`title-${magazine.id}`}
                    maxLength={200}
                    required
                    autoFocus
                    {...renaming.bind("title")}
                  />
                  <Button type="submit" size="sm" disabled={busy}>
                    Save
                  </Button>
                  <Button
                    variant="quiet"
                    size="sm"
                    onClick={() => setEditingId(null)}
                  >
                    Cancel
                  </Button>
                </form>
              ) : (
                magazine.title
              )}
            </th>
            <td data-label="Upload Date">
              {formatShortDate(magazine.uploaded_at, zone)}
            </td>
            <td data-label="Size">{formatFileSize(magazine.size_bytes)}</td>
            <td data-label="Status">
              {magazine.published_at != null && magazine.slug != null ? (
                <a href={`/magazine/${magazine.slug}`}>Published</a>
              ) : (
                "Draft"
              )}
            </td>
            <td className="actions-cell">
              <div className="row-actions">
                <a
                  className="btn btn-secondary btn-sm"
                  href={magazine.file_url}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  View<span className="sr-only"> {magazine.title}</span>
                </a>
                <Button
                  size="sm"
                  disabled={busy}
                  onClick={() => onPublish(magazine)}
                >
                  {magazine.published_at != null ? "Edit issue" : "Publish"}
                  <span className="sr-only"> {magazine.title}</span>
                </Button>
                {magazine.published_at != null && (
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={busy}
                    onClick={() => onAnnounce(magazine)}
                  >
                    Announce<span className="sr-only"> {magazine.title}</span>
                  </Button>
                )}
                {magazine.published_at != null && (
                  <Button
                    variant="quiet"
                    size="sm"
                    disabled={busy}
                    onClick={() => unpublishing.mutate(magazine)}
                  >
                    Unpublish<span className="sr-only"> {magazine.title}</span>
                  </Button>
                )}
                <Button
                  variant="quiet"
                  size="sm"
                  disabled={busy || editing}
                  onClick={() => {
                    setEditingId(magazine.id);
                    renaming.reset({ title: magazine.title });
                  }}
                >
                  Rename<span className="sr-only"> {magazine.title}</span>
                </Button>
                <Button
                  variant="quiet"
                  size="sm"
                  className="btn-danger"
                  disabled={busy}
                  onClick={() => remove(magazine)}
                >
                  Delete<span className="sr-only"> {magazine.title}</span>
                </Button>
              </div>
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
