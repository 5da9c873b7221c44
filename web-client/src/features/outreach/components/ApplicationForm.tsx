import type { ReactNode } from "react";
import { useLocation } from "wouter";
import { useToast } from "@/components/toast";
import { submitApplication } from "@/features/outreach/api/outreach";
import {
  APPLICATION_ANSWERS,
  APPLICATION_CODES,
  APPLICATION_POSTED,
  APPLICATION_REQUIRED,
  APPLICATION_SUBMITTED,
  ENGLISH_LEVELS,
  UPLOAD_PARTS,
  applicationFromAnswer,
  applicationProblem,
  MAX_WEEKLY_HOURS,
  MIN_AGE,
  MIN_WEEKLY_HOURS,
  NO_FILES,
  SAMPLE_KINDS,
  applicationRequest,
  samplesFor,
  submittedMessage,
  type ApplicationFields,
  type ApplicationFiles,
  type DocumentKind,
  type SampleKind,
} from "@/features/outreach/application";
import { ROLES } from "@/features/outreach/roles";
import { FileField, SampleField } from "./DocumentFields";
import { Honeypot } from "./Honeypot";
import { FieldError, InputField, invalidProps } from "@/components/InputField";
import { ProblemSummary } from "@/components/FormAnswer";
import { answered, answeredList, useFormAnswer } from "@/lib/form-answer";
import { useHydrated } from "@/lib/hydrated";
import { messageFor, serverProblem, type Problem } from "@/lib/problems";
import { useForm } from "@/lib/use-form";

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

const LABELS: Record<keyof ApplicationFields, string> = {
  fullName: "Full Name",
  age: "Age",
  country: "Country",
  email: "Email",
  timeZone: "Time Zone",
  weeklyAvailability: "Weekly Availability (hours)",
  englishLevel: "English Level",
  howDidYouHear: "How did you hear about us?",
  previousExperience: "Previous Experience",
  roles: "Roles",
  portfolio: "Portfolio link",
  writingSamples: "Writing Samples link",
  researchSamples: "Research Samples link",
  whyJoin: "Why do you want to join us?",
  contribution: "What would you like to contribute?",
  additional: "Anything else we should know?",
};

/** The element each field's message points to. */
function idOf(field: string): string {
  if (field === "roles") return "application-roles";
  if (["portfolio", "writingSamples", "researchSamples"].includes(field))
    return `application-${field}-link`;
  return `application-${field}`;
}

function problemOf(
  refused: { code?: string; title?: string; message: string },
  fields: ApplicationFields,
): Problem {
  return serverProblem(refused, {
    title: UNEXPECTED.title,
    values: { ...fields },
    required: APPLICATION_REQUIRED,
    answers: APPLICATION_ANSWERS,
    fieldOf: APPLICATION_CODES,
  });
}

/** What the form sends: the answers, the files chosen, and the honeypot. */
interface Application extends ApplicationFields {
  files: ApplicationFiles<File>;
  /** Files attached before the form came back, sent without on purpose. */
  skipped: readonly DocumentKind[];
  website: string;
}

/** The contributor application (spec §2): four sections, then submit. */
export function ApplicationForm() {
  const answer = useFormAnswer();
  const toast = useToast();
  const [, navigate] = useLocation();
  // Files attached before the form came back with an error: asked for again.
  const kept = (kind: DocumentKind): string | undefined => {
    const part = UPLOAD_PARTS[kind];
    if (!answeredList(answer, "reattach").includes(part)) return undefined;
    return answered(answer, `attached_${part}`) || part;
  };
  const form = useForm({
    initial: (): Application => ({
      ...applicationFromAnswer(answer),
      files: NO_FILES,
      skipped: [],
      website: "",
    }),
    problem: () =>
      answer?.error
        ? problemOf(answer.error, applicationFromAnswer(answer))
        : null,
    check: (fields) =>
      applicationProblem(fields, fields.files) ?? lostFiles(fields),
    send: (fields) => {
      const request = applicationRequest(fields, fields.files, fields.website);
      return submitApplication(request.text, request.uploads);
    },
    refused: ({ refused }, fields) => problemOf(refused ?? UNEXPECTED, fields),
    onDone: (data) => {
      toast({
        title: APPLICATION_SUBMITTED,
        description: submittedMessage(data.attachments),
      });
      navigate("/application/success");
    },
    idOf,
  });
  const { fields, problem, busy } = form;
  const { files, skipped } = fields;

  /** Files attached before that are neither chosen again nor skipped. */
  function lostFiles(sent: Application): Problem | null {
    const lost = (["cv", ...SAMPLE_KINDS] as DocumentKind[]).filter(
      (kind) =>
        kept(kind) !== undefined &&
        !sent.files[kind] &&
        !sent.skipped.includes(kind),
    );
    if (lost.length === 0) return null;
    return {
      title: "Attach your files again",
      message: `Files are not kept when the form comes back: choose ${lost
        .map((kind) => kept(kind))
        .join(" and ")} again, or tick "Send without it".`,
      fields: [],
    };
  }

  const skip = (kind: DocumentKind) => ({
    kept: kept(kind),
    skipped: skipped.includes(kind),
    onSkip: (on: boolean) =>
      form.setFields((all) => ({
        ...all,
        skipped: on
          ? [...all.skipped, kind]
          : all.skipped.filter((k) => k !== kind),
      })),
  });
  // Without JavaScript every sample section is on show (nothing reveals them).
  const hydrated = useHydrated();
  const chosen = samplesFor(fields.roles);
  const shown = hydrated
    ? chosen
    : { portfolio: true, writingSamples: true, researchSamples: true };

  const { set } = form;
  const setFile = (kind: DocumentKind, file: File | null) =>
    form.setFields((all) => ({
      ...all,
      files: { ...all.files, [kind]: file },
    }));

  const text = (name: TextField) => ({
    id: `application-${name}`,
    name: APPLICATION_POSTED[name],
    ...form.bind(name),
  });
  const error = (name: keyof ApplicationFields) => messageFor(problem, name);
  /** A textarea's props: its value, name and what is wrong with it. */
  const area = (name: TextField) => ({
    ...text(name),
    ...invalidProps(`application-${name}`, error(name)),
  });

  function toggleRole(id: string, checked: boolean) {
    form.setFields((all) => {
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
    linkName: APPLICATION_POSTED[kind],
    fileName: UPLOAD_PARTS[kind],
    error: error(kind),
    url: fields[kind],
    file: files[kind],
    onUrl: (url: string) => set(kind, url),
    onFile: (file: File | null) => setFile(kind, file),
    ...skip(kind),
  });

  return (
    <form
      className="form application-form"
      method="post"
      encType="multipart/form-data"
      noValidate
      onSubmit={form.submit}
    >
      <ProblemSummary problem={problem} labels={LABELS} idOf={idOf} />
      <FormSection step={1} title="Personal Information">
        <InputField
          label="Full Name"
          type="text"
          autoComplete="name"
          required
          {...text("fullName")}
          error={error("fullName")}
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
            error={error("age")}
          />
          <InputField
            label="Country"
            type="text"
            autoComplete="country-name"
            required
            {...text("country")}
            error={error("country")}
          />
        </div>
        <InputField
          label="Email"
          type="email"
          autoComplete="email"
          required
          {...text("email")}
          error={error("email")}
        />
        <div className="field-pair">
          <InputField
            label="Time Zone"
            type="text"
            placeholder="e.g. GMT+1 or Europe/Madrid"
            required
            {...text("timeZone")}
            error={error("timeZone")}
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
            error={error("weeklyAvailability")}
          />
        </div>
        <div className="field">
          <label htmlFor="application-englishLevel">English Level</label>
          <select
            id="application-englishLevel"
            name={APPLICATION_POSTED.englishLevel}
            required
            value={fields.englishLevel}
            {...invalidProps("application-englishLevel", error("englishLevel"))}
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
          <FieldError
            id="application-englishLevel"
            error={error("englishLevel")}
          />
        </div>
      </FormSection>

      <FormSection step={2} title="Role Application">
        <fieldset
          className="choice-group"
          id="application-roles"
          tabIndex={-1}
          {...invalidProps("application-roles", error("roles"))}
        >
          <legend>Which roles are you applying for?</legend>
          <FieldError id="application-roles" error={error("roles")} />
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
          error={error("howDidYouHear")}
        />
        <div className="field">
          <label htmlFor="application-previousExperience">
            Previous Experience
            <Optional />
          </label>
          <textarea rows={4} {...area("previousExperience")} />
        </div>
      </FormSection>

      <FormSection step={3} title="Documents">
        <FileField
          id="application-cv"
          name={UPLOAD_PARTS.cv}
          kind="cv"
          label="CV / Resume (optional)"
          file={files.cv}
          onChange={(file) => setFile("cv", file)}
          {...skip("cv")}
        />
        {shown.portfolio ? (
          <SampleField
            title="Portfolio"
            intro={
              hydrated
                ? "Required for Graphic Designer and Design Director."
                : "Required for Graphic Designer and Design Director; leave it empty for other roles."
            }
            {...sample("portfolio")}
          />
        ) : null}
        {shown.writingSamples ? (
          <SampleField
            title="Writing Samples"
            intro={
              hydrated
                ? "Required for Editorial Writer and Educational Pack Developer."
                : "Required for Editorial Writer and Educational Pack Developer; leave it empty for other roles."
            }
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
          <textarea rows={5} required {...area("whyJoin")} />
          <FieldError id="application-whyJoin" error={error("whyJoin")} />
        </div>
        <div className="field">
          <label htmlFor="application-contribution">
            What would you like to contribute?
          </label>
          <textarea rows={5} required {...area("contribution")} />
          <FieldError
            id="application-contribution"
            error={error("contribution")}
          />
        </div>
        <div className="field">
          <label htmlFor="application-additional">
            Anything else we should know?
            <Optional />
          </label>
          <textarea rows={3} {...area("additional")} />
        </div>
      </FormSection>

      <Honeypot
        id="application-website"
        value={fields.website}
        onChange={(value) => set("website", value)}
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
