import type { ContributorRole } from "@/features/outreach/roles";

export function RoleCard({ role }: { role: ContributorRole }) {
  return (
    <article className="role-card" id={role.id}>
      <h3 className="feature-title">{role.name}</h3>
      <p>{role.description}</p>
      <h4 className="role-subhead">Requirements</h4>
      <ul className="role-list">
        {role.requirements.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
      <h4 className="role-subhead">Key Skills</h4>
      <ul className="tag-list">
        {role.skills.map((s) => (
          <li key={s} className="tag">
            {s}
          </li>
        ))}
      </ul>
    </article>
  );
}
