import { useId, useState } from "react";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { settle, useForm } from "@/lib/use-form";
import { uploadPicture } from "@/features/dashboards/api/admin";
import { useStaffChanges } from "@/features/dashboards/api/changes";
import { setProfile, type Profile } from "@/features/dashboards/api/profiles";
import { profileQuery } from "@/features/dashboards/api/queries";
import { useStaffProblem } from "@/features/dashboards/api/use-staff-data";
import { useQuery } from "@/lib/use-query";

/** The longest bio, in characters (the server's limit). */
const MAX_BIO = 600;

/** Someone whose profile the desk may edit. */
export interface ProfileMember {
  id: string;
  name: string;
}

/**
 * A contributor's public page: the name their bylines and page show (the
 * first name and initial unless they choose their full name) and their bio.
 * With `members` (the content director's writers, the admin's staff), the
 * desk edits theirs too.
 */
export function ProfilePanel({
  members,
}: {
  members?: readonly ProfileMember[];
}) {
  const [member, setMember] = useState<string | null>(null);
  const { data, isError } = useQuery(profileQuery(member));
  const ids = useId();
  return (
    <details className="notices-panel">
      <summary>Public profile</summary>
      {members && members.length > 0 ? (
        <div className="field profile-whose">
          <label htmlFor={`${ids}-whose`}>Whose profile</label>
          <select
            id={`${ids}-whose`}
            value={member ?? ""}
            onChange={(e) => setMember(e.target.value || null)}
          >
            <option value="">Yours</option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {data ? (
        <ProfileForm key={member ?? "me"} member={member} initial={data} />
      ) : (
        <p className="status-text" role="status">
          {isError ? "This profile could not be loaded." : "Loading..."}
        </p>
      )}
    </details>
  );
}

function ProfileForm({
  member,
  initial,
}: {
  member: string | null;
  initial: Profile;
}) {
  const notify = useToast();
  const changes = useStaffChanges();
  const staffProblem = useStaffProblem();
  const yours = member === null;
  const form = useForm({
    initial: {
      full: initial.full_name_shown,
      bio: initial.bio,
      photo: initial.photo ?? "",
    },
    // A file is uploaded first (its address goes in the form); "save" saves.
    send: ({ full, bio, photo }, intent: "save" | File) =>
      settle<Profile | string>(
        intent === "save"
          ? setProfile(member, {
              full_name_shown: full,
              bio,
              photo: photo || null,
            })
          : uploadPicture(intent),
      ),
    refused: ({ cause }, _fields, intent) =>
      staffProblem(
        intent === "save"
          ? "Failed to save the profile"
          : "Failed to upload the photo",
        cause,
      ),
    // Bylines show the name everywhere: what readers see is fetched again.
    onDone: (answer) => {
      if (typeof answer === "string") return form.set("photo", answer);
      changes.profileSaved(member, answer);
      notify({ title: "Profile saved", description: answer.shown_name });
    },
  });
  const ids = useId();
  const page = `/author/${initial.slug}`;
  const left = MAX_BIO - [...form.fields.bio].length;

  return (
    <form
      className="form"
      noValidate
      onSubmit={(event) => form.submit(event, "save")}
    >
      <fieldset className="profile-name">
        <legend>
          {yours ? "Name on your page and bylines" : "Name on their page"}
        </legend>
        <div className="check-field">
          <input
            id={`${ids}-short`}
            type="radio"
            name={`${ids}-name`}
            checked={!form.fields.full}
            onChange={() => form.set("full", false)}
          />
          <label htmlFor={`${ids}-short`}>
            {initial.short_name} (first name and initial)
          </label>
        </div>
        <div className="check-field">
          <input
            id={`${ids}-full`}
            type="radio"
            name={`${ids}-name`}
            checked={form.fields.full}
            onChange={() => form.set("full", true)}
          />
          <label htmlFor={`${ids}-full`}>{initial.full_name} (full name)</label>
        </div>
      </fieldset>
      <div className="field">
        <label htmlFor={`${ids}-bio`}>Bio</label>
        <textarea
          id={`${ids}-bio`}
          rows={4}
          maxLength={MAX_BIO}
          aria-describedby={`${ids}-bio-hint`}
          {...form.bind("bio")}
        />
        <p id={`${ids}-bio-hint`} className="field-hint">
          {`Plain text, shown on the page as written. ${left} characters left.`}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-photo`}>Photo (optional)</label>
        <input
          id={`${ids}-photo`}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          disabled={form.busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) form.submit(null, file);
          }}
        />
        {form.sending instanceof File ? (
          <p className="field-hint" role="status">
            Uploading photo…
          </p>
        ) : null}
        {form.fields.photo ? (
          <div className="profile-photo">
            <img
              src={form.fields.photo}
              alt="The photo on the page"
              width={64}
              height={64}
            />
            <Button
              type="button"
              size="sm"
              variant="secondary"
              onClick={() => form.set("photo", "")}
            >
              Remove photo
            </Button>
          </div>
        ) : null}
      </div>
      <p className="field-hint">
        {yours ? "Your page" : "Their page"}: <a href={page}>{page}</a> (there
        once a piece is published). No email address or other contact is ever
        shown.
      </p>
      <Button type="submit" size="sm" disabled={form.busy}>
        {form.sending === "save" ? "Saving..." : "Save profile"}
      </Button>
    </form>
  );
}
