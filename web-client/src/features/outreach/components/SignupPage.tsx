import { useState, type FormEvent } from "react";
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
import {
  DoneMessage,
  ProblemSummary,
  useFormProblem,
} from "@/components/FormAnswer";
import { doneMessage, useFormAnswer } from "@/lib/form-answer";
import { messageFor, serverProblem, type Problem } from "@/lib/problems";
import { useDocumentTitle } from "@/lib/document-title";
import { useSite } from "@/lib/site";
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
  const [fields, setFields] = useState<RegistrationFields>(() =>
    registrationFromAnswer(answer?.error ? answer : undefined),
  );
  const { problem, refuse } = useFormProblem(
    () =>
      answer?.error
        ? problemOf(answer.error, registrationFromAnswer(answer))
        : null,
    idOf,
  );
  const done = answer?.done !== undefined ? doneMessage(answer) : null;
  const [website, setWebsite] = useState("");
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();

  const text = (field: TextField) => ({
    id: idOf(field),
    name: REGISTRATION_POSTED[field],
    value: fields[field],
    error: messageFor(problem, field),
    onChange: (event: { target: { value: string } }) =>
      setFields((all) => ({ ...all, [field]: event.target.value })),
  });

  function toggleInterest(interest: string, checked: boolean) {
    setFields((all) => ({
      ...all,
      interests: INTERESTS.filter((i) =>
        i === interest ? checked : all.interests.includes(i),
      ),
    }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = registrationProblem(fields);
    if (found) return refuse(found);
    setBusy(true);
    const result = await register(registrationInput(fields, website));
    if (result.ok) {
      navigate(CHECK_EMAIL_PATH);
      return;
    }
    setBusy(false);
    refuse(
      result.refused
        ? problemOf(result.refused, fields)
        : { title: REGISTRATION_FAILED, message: UNEXPECTED, fields: [] },
    );
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
          onSubmit={(event) => void submit(event)}
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
              value={fields.password}
              onChange={(event) =>
                setFields((all) => ({ ...all, password: event.target.value }))
              }
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
                    onChange={(event) =>
                      setFields((all) => ({
                        ...all,
                        [field]: event.target.checked,
                      }))
                    }
                  />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <Honeypot id="signup-website" value={website} onChange={setWebsite} />
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
