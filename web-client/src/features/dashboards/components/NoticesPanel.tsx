import { useId } from "react";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { settle, useForm } from "@/lib/use-form";
import { useStaffChanges } from "@/features/dashboards/api/changes";
import { setNotices } from "@/features/dashboards/api/newsroom";
import { noticesQuery } from "@/features/dashboards/api/queries";
import { useStaffProblem } from "@/features/dashboards/api/use-staff-data";
import type { Notices } from "@/features/dashboards/types";
import { useQuery } from "@/lib/use-query";

/**
 * Where a staff member gets newsroom email (changes requested on their piece,
 * their piece published), with the opt-out.
 */
export function NoticesPanel() {
  const { data } = useQuery(noticesQuery());
  return (
    <details className="notices-panel">
      <summary>Email notices</summary>
      {data ? (
        <NoticesForm initial={data} />
      ) : (
        <p className="status-text" role="status">
          Loading...
        </p>
      )}
    </details>
  );
}

function NoticesForm({ initial }: { initial: Notices }) {
  const notify = useToast();
  const changes = useStaffChanges();
  const staffProblem = useStaffProblem();
  const form = useForm({
    initial: { email: initial.email ?? "", on: initial.notify },
    send: ({ email, on }) =>
      settle(setNotices({ email: email.trim(), notify: on })),
    refused: ({ cause }) =>
      staffProblem("Failed to save email settings", cause),
    onDone: (saved) => {
      changes.noticesSaved(saved);
      notify({ title: "Email settings saved" });
    },
  });
  const ids = useId();

  return (
    <form className="form" noValidate onSubmit={form.submit}>
      <div className="field">
        <label htmlFor={`${ids}-email`}>Your email address</label>
        <input
          id={`${ids}-email`}
          type="email"
          autoComplete="email"
          {...form.bind("email")}
        />
      </div>
      <div className="check-field">
        <input
          id={`${ids}-on`}
          type="checkbox"
          checked={form.fields.on}
          onChange={(e) => form.set("on", e.target.checked)}
        />
        <label htmlFor={`${ids}-on`}>
          Email me newsroom notices (changes requested, published)
        </label>
      </div>
      <Button type="submit" size="sm" disabled={form.busy}>
        {form.busy ? "Saving..." : "Save"}
      </Button>
    </form>
  );
}
