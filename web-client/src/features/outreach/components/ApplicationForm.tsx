import { useState, type FormEvent, type ReactNode } from "react";
import { useLocation } from "wouter";
import { useToast } from "@/components/toast";
import { submitApplication } from "@/features/outreach/api/outreach";
import {
  APPLICATION_SUBMITTED,
  EMPTY_APPLICATION,
  ENGLISH_LEVELS,
  MAX_WEEKLY_HOURS,
  MIN_AGE,
  MIN_WEEKLY_HOURS,
  NO_FILES,
  applicationRequest,
  samplesFor,
  submittedMessage,
  validateApplication,
  type ApplicationFields,
  type ApplicationFiles,
  type DocumentKind,
  type SampleKind,
} from "@/features/outreach/application";
import { ROLES } from "@/features/outreach/roles";
import { FileField, SampleField } from "./DocumentFields";
import { Honeypot } from "./Honeypot";
import { InputField } from "@/components/InputField";

const UNEXPECTED = {
  title: "Unexpected Error",
  message: "An unexpected error occurred. Please try again later.",
};

type TextField = Exclude<keyof ApplicationFields, "roles" | "englishLevel">;

function FormSection({
  step,
  title,
  children,
}: {
  step: number;
  title: string;
  children: ReactNode;
}) {
  const id = `application-step-${step}`;
  return (
    <section className="form-section" aria-labelledby={id}>
      <h2 id={id} className="form-section-title">
        <span className="step-number" aria-hidden="true">
          {step}
        </span>
        {title}
      </h2>
      <div className="form-section-body">{children}</div>
    </section>
  );
}

const Optional = () => <span className="optional"> (optional)</span>;

/** The contributor application (spec §2): four sections, then submit. */
export function ApplicationForm() {
  const [fields, setFields] = useState<ApplicationFields>(EMPTY_APPLICATION);
  const [files, setFiles] = useState<ApplicationFiles<File>>(NO_FILES);
  const [website, setWebsite] = useState("");
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const [, navigate] = useLocation();
  const shown = samplesFor(fields.roles);

  const set = <K extends keyof ApplicationFields>(
    name: K,
    value: ApplicationFields[K],
  ) => setFields((all) => ({ ...all, [name]: value }));
  const setFile = (kind: DocumentKind, file: File | null) =>
    setFiles((all) => ({ ...all, [kind]: file }));

  const text = (name: TextField) => ({
    id: `application-${name}`,
    name,
    value: fields[name],
    onChange: (event: { target: { value: string } }) =>
      set(name, event.target.value),
  });

  function toggleRole(id: string, checked: boolean) {
    setFields((all) => {
      const roles = new Set(all.roles);
      if (checked) roles.add(id);
      else roles.delete(id);
      // Kept in the order of the list, whatever the order of the clicks.
      return {
        ...all,
        roles: ROLES.map((r) => r.id).filter((r) => roles.has(r)),
      };
    });
  }

  const sample = (kind: SampleKind) => ({
    id: `application-${kind}`,
    kind,
    url: fields[kind],
    file: files[kind],
    onUrl: (url: string) => set(kind, url),
    onFile: (file: File | null) => setFile(kind, file),
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const problem = validateApplication(fields, files);
    if (problem) {
      toast({
        title: problem.title,
        description: problem.message,
        variant: "destructive",
      });
      return;
    }
    setBusy(true);
    const request = applicationRequest(fields, files, website);
    const result = await submitApplication(request.text, request.uploads);
    if (result.ok) {
      toast({
        title: APPLICATION_SUBMITTED,
        description: submittedMessage(result.data.attachments),
      });
      navigate("/application/success");
      return;
    }
    setBusy(false);
    const refused = result.refused ?? UNEXPECTED;
    toast({
      title: refused.title || UNEXPECTED.title,
      description: refused.message,
      variant: "destructive",
    });
  }

  return (
    <form
      className="form application-form"
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <FormSection step={1} title="Personal Information">
        <InputField
          label="Full Name"
          type="text"
          autoComplete="name"
          required
          {...text("fullName")}
        />
        <div className="field-pair">
          <InputField
            label="Age"
            type="number"
            inputMode="numeric"
            min={MIN_AGE}
            max={120}
            step={1}
            required
            {...text("age")}
          />
          <InputField
            label="Country"
            type="text"
            autoComplete="country-name"
            required
            {...text("country")}
          />
        </div>
        <InputField
          label="Email"
          type="email"
          autoComplete="email"
          required
          {...text("email")}
        />
        <div className="field-pair">
          <InputField
            label="Time Zone"
            type="text"
            placeholder="e.g. GMT+1 or Europe/Madrid"
            required
            {...text("timeZone")}
          />
          <InputField
            label="Weekly Availability (hours)"
            type="number"
            inputMode="numeric"
            min={MIN_WEEKLY_HOURS}
            max={MAX_WEEKLY_HOURS}
            step={1}
            required
            {...text("weeklyAvailability")}
          />
        </div>
        <div className="field">
          <label htmlFor="application-englishLevel">English Level</label>
          <select
            id="application-englishLevel"
            name="englishLevel"
            required
            value={fields.englishLevel}
            onChange={(event) =>
              set(
                "englishLevel",
                event.target.value as ApplicationFields["englishLevel"],
              )
            }
          >
            <option value="" disabled>
              Select your level
            </option>
            {ENGLISH_LEVELS.map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
          </select>
        </div>
      </FormSection>

      <FormSection step={2} title="Role Application">
        <fieldset className="choice-group">
          <legend>Which roles are you applying for?</legend>
          <div className="choice-grid">
            {ROLES.map((role) => (
              <label key={role.id} className="check-field">
                <input
                  type="checkbox"
                  name="roles"
                  value={role.id}
                  checked={fields.roles.includes(role.id)}
                  onChange={(event) =>
                    toggleRole(role.id, event.target.checked)
                  }
                />
                {role.name}
              </label>
            ))}
          </div>
        </fieldset>
        <InputField
          label={
            <>
              How did you hear about us? <Optional />
            </>
          }
          type="text"
          {...text("howDidYouHear")}
        />
        <div className="field">
          <label htmlFor="application-previousExperience">
            Previous Experience
            <Optional />
          </label>
          <textarea rows={4} {...text("previousExperience")} />
        </div>
      </FormSection>

      <FormSection step={3} title="Documents">
        <FileField
          id="application-cv"
          kind="cv"
          label="CV / Resume (optional)"
          file={files.cv}
          onChange={(file) => setFile("cv", file)}
        />
        {shown.portfolio ? (
          <SampleField
            title="Portfolio"
            intro="Required for Graphic Designer and Design Director."
            {...sample("portfolio")}
          />
        ) : null}
        {shown.writingSamples ? (
          <SampleField
            title="Writing Samples"
            intro="Required for Editorial Writer and Educational Pack Developer."
            {...sample("writingSamples")}
          />
        ) : null}
        {shown.researchSamples ? (
          <SampleField
            title="Research Samples"
            optional
            intro="Welcome for Research Assistant applicants."
            {...sample("researchSamples")}
          />
        ) : null}
      </FormSection>

      <FormSection step={4} title="Tell Us About Yourself">
        <div className="field">
          <label htmlFor="application-whyJoin">
            Why do you want to join us?
          </label>
          <textarea rows={5} required {...text("whyJoin")} />
        </div>
        <div className="field">
          <label htmlFor="application-contribution">
            What would you like to contribute?
          </label>
          <textarea rows={5} required {...text("contribution")} />
        </div>
        <div className="field">
          <label htmlFor="application-additional">
            Anything else we should know?
            <Optional />
          </label>
          <textarea rows={3} {...text("additional")} />
        </div>
      </FormSection>

      <Honeypot
        id="application-website"
        value={website}
        onChange={setWebsite}
      />
      <button
        type="submit"
        className="btn btn-primary btn-lg application-submit"
        disabled={busy}
        aria-busy={busy || undefined}
      >
        {busy ? (
          <>
            <span className="spinner" aria-hidden="true" />
            Submitting...
          </>
        ) : (
          "Submit Application"
        )}
      </button>
    </form>
  );
}
