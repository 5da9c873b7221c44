import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/Button";
import { FieldError, invalidProps } from "@/components/InputField";
import { ApiFailure } from "@/lib/api-client";
import { useToast } from "@/components/toast";
import { STAFF_ROLES } from "@/lib/staff-roles";
import {
  useRowAction,
  useStaffList,
} from "@/features/dashboards/api/use-staff-data";
import {
  addStaff,
  rotateStaffKey,
  setStaffActive,
} from "@/features/dashboards/api/admin";
import { staffChanged } from "@/features/dashboards/api/changes";
import { staffMembersQuery } from "@/features/dashboards/api/queries";
import type {
  IssuedKey,
  StaffRecord,
  StaffRole,
} from "@/features/dashboards/types";
import { IssuedKeyNotice } from "./IssuedKeyNotice";
import { StaffTable } from "./StaffTable";

/**
 * Staff management (admin only, enforced by the server): add a member, rotate
 * a key, disable or enable. A key is shown once, right after it is issued.
 */
export function StaffPanel({ selfId }: { selfId: string }) {
  const notify = useToast();
  const queryClient = useQueryClient();
  const staff = useStaffList(staffMembersQuery(), "Failed to fetch staff");
  const { busyId, run } = useRowAction(() => staffChanged(queryClient));
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState("");
  const nameInput = useRef<HTMLInputElement>(null);
  const [role, setRole] = useState<StaffRole>("writer");

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      // Said at the field, as the public forms do.
      setNameError("Please enter the staff member's name.");
      nameInput.current?.focus();
      return;
    }
    setNameError("");
    void run("new", "Failed to add staff member", async () => {
      try {
        setIssued(await addStaff(trimmed, role));
      } catch (cause) {
        // A refusal about the name goes under it; anything else is reported.
        if (cause instanceof ApiFailure && cause.code === "invalid_staff") {
          setNameError(cause.message);
          nameInput.current?.focus();
          return;
        }
        throw cause;
      }
      setName("");
    });
  }

  function rotate(member: StaffRecord) {
    const question = `Issue a new access key for ${member.name}? Their current key and sessions stop working.`;
    if (!window.confirm(question)) return;
    void run(member.id, "Failed to rotate key", async () => {
      setIssued(await rotateStaffKey(member.id));
    });
  }

  function toggle(member: StaffRecord) {
    if (
      member.active &&
      !window.confirm(`Disable ${member.name}? They are signed out at once.`)
    )
      return;
    void run(member.id, "Failed to update staff member", async () => {
      const updated = await setStaffActive(member.id, !member.active);
      notify({
        title: updated.active
          ? `${updated.name} can sign in again.`
          : `${updated.name} is disabled.`,
      });
    });
  }

  return (
    <section aria-labelledby="staff-heading" className="dashboard-block">
      <h2 id="staff-heading" className="dashboard-subtitle">
        Staff ({staff?.length ?? 0})
      </h2>
      {issued ? (
        <IssuedKeyNotice issued={issued} onDone={() => setIssued(null)} />
      ) : null}
      <form className="form staff-add" onSubmit={add} noValidate>
        <div className="field">
          <label htmlFor="staff-name">Name</label>
          <input
            ref={nameInput}
            id="staff-name"
            value={name}
            maxLength={100}
            autoComplete="off"
            {...invalidProps("staff-name", nameError)}
            onChange={(event) => setName(event.target.value)}
          />
          <FieldError id="staff-name" error={nameError} />
        </div>
        <div className="field">
          <label htmlFor="staff-role">Role</label>
          <select
            id="staff-role"
            value={role}
            onChange={(event) => setRole(event.target.value as StaffRole)}
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
