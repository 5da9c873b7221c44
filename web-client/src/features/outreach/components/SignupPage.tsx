import { Link, useLocation } from "wouter";
import { register } from "@/features/outreach/api/outreach";
import {
  INTERESTS,
  MAX_AGE,
  MIN_AGE,
  MIN_PASSWORD_CHARS,
  REGISTRATION_CODES,
  REGISTRATION_FAILED,
  REGISTRATION_POSTED,
  REGISTRATION_REQUIRED,
  SIGNUP_EMAILS,
  registrationFromAnswer,
  registrationInput,
  registrationProblem,
  typedFields,
  type RegistrationFields,
} from "@/features/outreach/registration";
import { FieldError, invalidProps } from "@/components/InputField";
import { DoneMessage, ProblemSummary } from "@/components/FormAnswer";
import { doneMessage, useFormAnswer } from "@/lib/form-answer";
import { messageFor, serverProblem, type Problem } from "@/lib/problems";
import { useDocumentTitle } from "@/lib/document-title";
import { useSite } from "@/lib/site";
import { useForm } from "@/lib/use-form";
import { Honeypot } from "./Honeypot";
import { InputField } from "@/components/InputField";
import { PAGE_TITLES } from "@/lib/pages.gen";
import { CHECK_EMAIL_PATH } from "./CheckEmailPage";

const UNEXPECTED = "An unexpected error occurred.";

type TextField = Exclude<
  keyof RegistrationFields,
  "interests" | (typeof SIGNUP_EMAILS)[number]["field"]
>;

const LABELS: Record<keyof RegistrationFields, string> = {
  firstName: "First Name",
  lastName: "Last Name",
  email: "Email",
  password: "Password",
  confirmPassword: "Confirm Password",
  age: "Age",
  country: "Country",
  interests: "Interests",
  notifyMagazine: "Magazine launch",
  notifyPacks: "Packs launch",
  weeklyDigest: "Weekly digest",
};

const idOf = (field: string) => `signup-${field}`;

const CHECK_EMAIL = "Check Your Email";

function problemOf(
  refused: { code?: string; title?: string; message: string },
  fields: RegistrationFields,
): Problem {
  return serverProblem(refused, {
    title: REGISTRATION_FAILED,
    values: typedFields(fields),
    required: REGISTRATION_REQUIRED,
    fieldOf: REGISTRATION_CODES,
  });
}

export function SignupPage() {
  const { name } = useSite();
  const title = `Join ${name}`;
  useDocumentTitle(PAGE_TITLES["/signup"]);
  const answer = useFormAnswer();
  const [, navigate] = useLocation();
  const form = useForm({
    initial: () => ({
      ...registrationFromAnswer(answer?.error ? answer : undefined),
      website: "",
    }),
    problem: () =>
      answer?.error
        ? problemOf(answer.error, registrationFromAnswer(answer))
        : null,
    check: registrationProblem,
    send: (fields) => register(registrationInput(fields, fields.website)),
    refused: ({ refused }, fields) =>
      refused
        ? problemOf(refused, fields)
        : { title: REGISTRATION_FAILED, message: UNEXPECTED, fields: [] },
    onDone: () => navigate(CHECK_EMAIL_PATH),
    idOf,
  });
  const { fields, problem, busy } = form;
  const done = answer?.done !== undefined ? doneMessage(answer) : null;

  const text = (field: TextField) => ({
    id: idOf(field),
    name: REGISTRATION_POSTED[field],
    error: messageFor(problem, field),
    ...form.bind(field),
  });

  function toggleInterest(interest: string, checked: boolean) {
    form.setFields((all) => ({
      ...all,
      interests: INTERESTS.filter((i) =>
        i === interest ? checked : all.interests.includes(i),
      ),
    }));
  }

  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">{title}</h1>
        <p>
          Create a reader account to follow the topics you care about and hear
          first when the magazine and educational packs launch.
        </p>
        {done !== null ? <DoneMessage title={CHECK_EMAIL} text={done} /> : null}
        <form
          className="form signup-form"
          method="post"
          noValidate
          onSubmit={form.submit}
        >
          <ProblemSummary problem={problem} labels={LABELS} idOf={idOf} />
          <div className="field-pair">
            <InputField
              label="First Name"
              type="text"
              autoComplete="given-name"
              required
              {...text("firstName")}
            />
            <InputField
              label="Last Name"
              type="text"
              autoComplete="family-name"
              required
              {...text("lastName")}
            />
          </div>
          <InputField
            label="Email"
            type="email"
            autoComplete="email"
            required
            {...text("email")}
          />
          <div className="field">
            <label htmlFor="signup-password">Password</label>
            <input
              type="password"
              autoComplete="new-password"
              required
              minLength={MIN_PASSWORD_CHARS}
              id={idOf("password")}
              name={REGISTRATION_POSTED.password}
              {...form.bind("password")}
              {...invalidProps(
                idOf("password"),
                messageFor(problem, "password"),
                "signup-password-hint",
              )}
            />
            <FieldError
              id={idOf("password")}
              error={messageFor(problem, "password")}
            />
            <p id="signup-password-hint" className="field-hint">
              At least {MIN_PASSWORD_CHARS} characters.
            </p>
          </div>
          <InputField
            label="Confirm Password"
            type="password"
            autoComplete="new-password"
            required
            {...text("confirmPassword")}
          />
          <div className="field-pair">
            <InputField
              label={
                <>
                  Age<span className="optional"> (optional)</span>
                </>
              }
              type="number"
              inputMode="numeric"
              min={MIN_AGE}
              max={MAX_AGE}
              step={1}
              {...text("age")}
            />
            <InputField
              label={
                <>
                  Country<span className="optional"> (optional)</span>
                </>
              }
              type="text"
              autoComplete="country-name"
              {...text("country")}
            />
          </div>
          <fieldset className="choice-group">
            <legend>
              Interests<span className="optional"> (optional)</span>
            </legend>
            <div className="choice-grid">
              {INTERESTS.map((interest) => (
                <label key={interest} className="check-field">
                  <input
                    type="checkbox"
                    name="interests"
                    value={interest}
                    checked={fields.interests.includes(interest)}
                    onChange={(event) =>
                      toggleInterest(interest, event.target.checked)
                    }
                  />
                  {interest}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className="choice-group">
            <legend>
              Emails<span className="optional"> (optional)</span>
            </legend>
            <p className="field-hint">
              Nothing is sent until you confirm your address; every email has a
              link to stop them.
            </p>
            <div className="choice-grid choice-list">
              {SIGNUP_EMAILS.map(({ field, label }) => (
                <label key={field} className="check-field">
                  <input
                    type="checkbox"
                    name={REGISTRATION_POSTED[field]}
                    checked={fields[field]}
                    onChange={(event) => form.set(field, event.target.checked)}
                  />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <Honeypot
            id="signup-website"
            value={fields.website}
            onChange={(value) => form.set("website", value)}
          />
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={busy}
            aria-busy={busy || undefined}
          >
            {busy ? (
              <>
                <span className="spinner" aria-hidden="true" />
                Creating account...
              </>
            ) : (
              "Create Account"
            )}
          </button>
        </form>
        <p>
          Already have an account? <Link href="/login">Log in</Link>
        </p>
      </div>
    </div>
  );
}
