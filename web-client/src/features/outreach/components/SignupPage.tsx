import { useState, type FormEvent } from "react";
import { Link, useLocation } from "wouter";
import { useToast } from "@/components/toast";
import { register } from "@/features/outreach/api/outreach";
import {
  EMPTY_REGISTRATION,
  INTERESTS,
  MAX_AGE,
  MIN_AGE,
  MIN_PASSWORD_CHARS,
  REGISTRATION_FAILED,
  registrationInput,
  validateRegistration,
  type RegistrationFields,
} from "@/features/outreach/registration";
import { useDocumentTitle } from "@/lib/document-title";
import { useSite } from "@/lib/site";
import { Honeypot } from "./Honeypot";
import { InputField } from "@/components/InputField";
import { PAGE_TITLES } from "@/lib/pages.gen";

const UNEXPECTED = "An unexpected error occurred.";

type TextField = Exclude<keyof RegistrationFields, "interests">;

export function SignupPage() {
  const { name } = useSite();
  const title = `Join ${name}`;
  useDocumentTitle(PAGE_TITLES["/signup"]);
  const [fields, setFields] = useState<RegistrationFields>(EMPTY_REGISTRATION);
  const [website, setWebsite] = useState("");
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const [, navigate] = useLocation();

  const text = (field: TextField) => ({
    id: `signup-${field}`,
    name: field,
    value: fields[field],
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
    const problem = validateRegistration(fields);
    if (problem) {
      toast({
        title: problem.title,
        description: problem.message,
        variant: "destructive",
      });
      return;
    }
    setBusy(true);
    const result = await register(registrationInput(fields, website));
    if (result.ok) {
      toast({ title: "Check Your Email", description: result.data.message });
      navigate("/login");
      return;
    }
    setBusy(false);
    toast({
      title: result.refused?.title || REGISTRATION_FAILED,
      description: result.refused?.message || UNEXPECTED,
      variant: "destructive",
    });
  }

  return (
    <div className="section">
      <div className="container auth-card">
        <h1 className="page-title">{title}</h1>
        <p>
          Create a reader account to follow the topics you care about and hear
          first when the magazine and educational packs launch.
        </p>
        <form
          className="form signup-form"
          noValidate
          onSubmit={(event) => void submit(event)}
        >
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
              aria-describedby="signup-password-hint"
              {...text("password")}
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
