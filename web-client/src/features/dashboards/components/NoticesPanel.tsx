import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { staffKeys } from "@/features/dashboards/api/keys";
import { setNotices } from "@/features/dashboards/api/newsroom";
import { noticesQuery } from "@/features/dashboards/api/queries";
import { useReportFailure } from "@/features/dashboards/api/use-staff-data";
import type { Notices } from "@/features/dashboards/types";

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
  const report = useReportFailure();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState(initial.email ?? "");
  const [on, setOn] = useState(initial.notify);
  const [saving, setSaving] = useState(false);
  const ids = useId();

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    try {
      const saved = await setNotices({ email: email.trim(), notify: on });
      queryClient.setQueryData(staffKeys.notices, saved);
      notify({ title: "Email settings saved" });
    } catch (cause) {
      report("Failed to save email settings", cause);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="form" noValidate onSubmit={(e) => void save(e)}>
      <div className="field">
        <label htmlFor={`${ids}-email`}>Your email address</label>
        <input
          id={`${ids}-email`}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <div className="check-field">
        <input
          id={`${ids}-on`}
          type="checkbox"
          checked={on}
          onChange={(e) => setOn(e.target.checked)}
        />
        <label htmlFor={`${ids}-on`}>
          Email me newsroom notices (changes requested, published)
        </label>
      </div>
      <Button type="submit" size="sm" disabled={saving}>
        {saving ? "Saving..." : "Save"}
      </Button>
    </form>
  );
}
