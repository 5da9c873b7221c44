import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { formatShortDate } from "@/lib/dates";
import { useDisplayTimeZone } from "@/lib/time-zone";
import {
  deleteMagazine,
  renameMagazine,
  unpublishMagazine,
} from "@/features/dashboards/api/admin";
import { magazinesChanged } from "@/features/dashboards/api/changes";
import { useRowAction } from "@/features/dashboards/api/use-staff-data";
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
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState<{
    id: string;
    title: string;
  } | null>(null);
  const { busyId, run } = useRowAction(() => magazinesChanged(queryClient));

  function saveTitle(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!renaming) return;
    const { id, title } = renaming;
    void run(id, "Failed to rename magazine", async () => {
      await renameMagazine(id, title);
      setRenaming(null);
      notify({ title: "Magazine renamed." });
    });
  }

  function unpublish(magazine: Magazine) {
    void run(magazine.id, "Failed to unpublish magazine", async () => {
      await unpublishMagazine(magazine.id);
      notify({ title: "Issue taken back: readers no longer see it." });
    });
  }

  function remove(magazine: Magazine) {
    if (!window.confirm(`Are you sure you want to delete “${magazine.title}”?`))
      return;
    void run(magazine.id, "Failed to delete magazine", async () => {
      await deleteMagazine(magazine.id);
      notify({ title: "Magazine deleted." });
    });
  }

  return (
    <DataTable
      labelledBy={"magazines-heading"}
      columns={["Title", "Upload Date", "Size", "Status"]}
    >
      {magazines.map((magazine) => {
        const busy = busyId === magazine.id;
        const editing = renaming?.id === magazine.id;
        return (
          <tr key={magazine.id}>
            <th scope="row" className="data-title">
              {editing ? (
                <form className="inline-form" onSubmit={saveTitle}>
                  <label className="sr-only" htmlFor={`title-${magazine.id}`}>
                    New title for {magazine.title}
                  </label>
                  <input
                    id={`title-${magazine.id}`}
                    value={renaming.title}
                    maxLength={200}
                    required
                    autoFocus
                    onChange={(event) =>
                      setRenaming({
                        id: magazine.id,
                        title: event.target.value,
                      })
                    }
                  />
                  <Button type="submit" size="sm" disabled={busy}>
                    Save
                  </Button>
                  <Button
                    variant="quiet"
                    size="sm"
                    onClick={() => setRenaming(null)}
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
                    onClick={() => unpublish(magazine)}
                  >
                    Unpublish<span className="sr-only"> {magazine.title}</span>
                  </Button>
                )}
                <Button
                  variant="quiet"
                  size="sm"
                  disabled={busy || editing}
                  onClick={() =>
                    setRenaming({ id: magazine.id, title: magazine.title })
                  }
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
