import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/Button";
import { FieldError, invalidProps } from "@/components/InputField";
import { ApiFailure } from "@/lib/api-client";
import { useClearToasts, useToast } from "@/components/toast";
import { messageFor, type Problem } from "@/lib/problems";
import { STAFF_ROLES } from "@/lib/staff-roles";
import { settle, useForm } from "@/lib/use-form";
import {
  useReportFailure,
  useStaffList,
} from "@/features/dashboards/api/use-staff-data";
import {
  addStaff,
  rotateStaffKey,
  setStaffActive,
} from "@/features/dashboards/api/admin";
import { useStaffChanges } from "@/features/dashboards/api/changes";
import { staffMembersQuery } from "@/features/dashboards/api/queries";
import type {
  IssuedKey,
  StaffRecord,
  StaffRole,
} from "@/features/dashboards/types";
import { IssuedKeyNotice } from "./IssuedKeyNotice";
import { StaffTable } from "./StaffTable";

/** A problem with the name, said at the field (as the public forms do). */
const nameProblem = (message: string): Problem => ({
  title: "",
  message,
  fields: ["name"],
});

/**
 * Staff management (admin only, enforced by the server): add a member, rotate
 * a key, disable or enable. A key is shown once, right after it is issued.
 */
export function StaffPanel({ selfId }: { selfId: string }) {
  const notify = useToast();
  const clearToasts = useClearToasts();
  const report = useReportFailure();
  const changes = useStaffChanges();
  const staff = useStaffList(staffMembersQuery(), "Failed to fetch staff");
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const adding = useForm({
    initial: { name: "", role: "writer" as StaffRole },
    check: ({ name }) =>
      name.trim() ? null : nameProblem("Please enter the staff member's name."),
    send: ({ name, role }) => {
      // A new attempt makes the last error stale: it goes, whatever this one says.
      clearToasts();
      return settle(addStaff(name.trim(), role));
    },
    refused: ({ cause }) => {
      // A refusal about the name goes under it; anything else is reported.
      if (cause instanceof ApiFailure && cause.code === "invalid_staff") {
        return nameProblem(cause.message);
      }
      report("Failed to add staff member", cause);
      return null;
    },
    onDone: (added) => {
      setIssued(added);
      adding.set("name", "");
    },
    invalidates: () => changes.staff(),
    idOf: () => "staff-name",
    toast: false,
  });
  const nameError = messageFor(adding.problem, "name");
  const rotating = useMutation({
    mutationFn: (member: StaffRecord) => rotateStaffKey(member.id),
    onMutate: () => clearToasts(),
    onSuccess: (key) => {
      setIssued(key);
      return changes.staff();
    },
    onError: (cause) => report("Failed to rotate key", cause),
  });
  const toggling = useMutation({
    mutationFn: (member: StaffRecord) =>
      setStaffActive(member.id, !member.active),
    onMutate: () => clearToasts(),
    onSuccess: (updated) => {
      notify({
        title: updated.active
          ? `${updated.name} can sign in again.`
          : `${updated.name} is disabled.`,
      });
      return changes.staff();
    },
    onError: (cause) => report("Failed to update staff member", cause),
  });
  const busyId = adding.busy
    ? "new"
    : rotating.isPending
      ? rotating.variables.id
      : toggling.isPending
        ? toggling.variables.id
        : null;

  function rotate(member: StaffRecord) {
    const question = `Issue a new access key for ${member.name}? Their current key and sessions stop working.`;
    if (!window.confirm(question)) return;
    rotating.mutate(member);
  }

  function toggle(member: StaffRecord) {
    if (
      member.active &&
      !window.confirm(`Disable ${member.name}? They are signed out at once.`)
    )
      return;
    toggling.mutate(member);
  }

  return (
    <section aria-labelledby="staff-heading" className="dashboard-block">
      <h2 id="staff-heading" className="dashboard-subtitle">
        Staff ({staff?.length ?? 0})
      </h2>
      {issued ? (
        <IssuedKeyNotice issued={issued} onDone={() => setIssued(null)} />
      ) : null}
      <form className="form staff-add" onSubmit={adding.submit} noValidate>
        <div className="field">
          <label htmlFor="staff-name">Name</label>
          <input
            id="staff-name"
            maxLength={100}
            autoComplete="off"
            {...adding.bind("name")}
            {...invalidProps("staff-name", nameError)}
          />
          <FieldError id="staff-name" error={nameError} />
        </div>
        <div className="field">
          <label htmlFor="staff-role">Role</label>
          <select
            id="staff-role"
            value={adding.fields.role}
            onChange={(event) =>
              adding.set("role", event.target.value as StaffRole)
            }
          >
            {STAFF_ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" disabled={busyId === "new"}>
          Add Staff Member
        </Button>
      </form>
      {staff === null ? (
        <p className="status-text" role="status">
          Loading staff...
        </p>
      ) : (
        <StaffTable
          staff={staff}
          selfId={selfId}
          busyId={busyId}
          onRotate={rotate}
          onToggle={toggle}
        />
      )}
    </section>
  );
}
