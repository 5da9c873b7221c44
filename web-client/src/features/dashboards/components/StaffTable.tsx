import { Badge } from "@/components/Badge";
import { Button } from "@/components/Button";
import { formatLongDateTime } from "@/lib/dates";
import { useDisplayTimeZone } from "@/lib/time-zone";
import type { StaffRecord } from "@/features/dashboards/types";
import { DataTable } from "./DataTable";

interface Props {
  staff: readonly StaffRecord[];
  /** The signed-in admin, marked "(you)". */
  selfId: string;
  busyId: string | null;
  onRotate: (member: StaffRecord) => void;
  onToggle: (member: StaffRecord) => void;
}

/** Name, role, whether they may sign in, last sign-in, and the key actions. */
export function StaffTable({
  staff,
  selfId,
  busyId,
  onRotate,
  onToggle,
}: Props) {
  const zone = useDisplayTimeZone();
  return (
    <DataTable
      labelledBy={"staff-heading"}
      columns={["Name", "Role", "Status", "Last sign-in"]}
    >
      {staff.map((member) => {
        const busy = busyId === member.id;
        return (
          <tr key={member.id}>
            <th scope="row" className="data-title">
              {member.name}
              {member.id === selfId ? (
                <span className="muted"> (you)</span>
              ) : null}
            </th>
            <td data-label="Role">{member.role}</td>
            <td data-label="Status">
              <Badge tone={member.active ? "accent" : "outline"}>
                {member.active ? "Active" : "Disabled"}
              </Badge>
            </td>
            <td data-label="Last sign-in">
              {member.last_login_at
                ? formatLongDateTime(member.last_login_at, zone)
                : "Never"}
            </td>
            <td className="actions-cell">
              <div className="row-actions">
                <Button
                  variant="quiet"
                  size="sm"
                  disabled={busy || !member.active}
                  onClick={() => onRotate(member)}
                >
                  Rotate key
                  <span className="sr-only"> for {member.name}</span>
                </Button>
                <Button
                  variant="quiet"
                  size="sm"
                  className={member.active ? "btn-danger" : undefined}
                  disabled={busy}
                  onClick={() => onToggle(member)}
                >
                  {member.active ? "Disable" : "Enable"}
                  <span className="sr-only"> {member.name}</span>
                </Button>
              </div>
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
