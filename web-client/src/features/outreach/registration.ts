/** Reader registration (`/signup`): its fields and the client checks (spec §5). */
import type { components } from "@/api/schema";
import { rules } from "@/api/rules.gen";
import { answered, answeredList, type FormAnswer } from "@/lib/form-answer";
import { emptyFields, type Problem } from "@/lib/problems";
import { isInterest } from "@/lib/interests";
import {
  INVALID_EMAIL,
  MISSING_INFORMATION,
  isValidEmail,
  type ToastText,
} from "@/features/outreach/validation";

type RegistrationInput = components["schemas"]["RegistrationInput"];

export { INTERESTS } from "@/lib/interests";

// The server's rules, from the contract.
const registration = rules.RegistrationInput;
export const MIN_PASSWORD_CHARS = registration.password.minLength;
export const MAX_PASSWORD_CHARS = registration.password.maxLength;
export const MIN_AGE = registration.age.minimum;
export const MAX_AGE = registration.age.maximum;

export interface RegistrationFields {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  /** Optional. */
  age: string;
  country: string;
  interests: readonly string[];
  /** Emails the reader asks for (unticked unless they tick them: consent is explicit). */
  notifyMagazine: boolean;
  notifyPacks: boolean;
  weeklyDigest: boolean;
}

/** The emails a reader may ask for at signup, as the form offers them. */
export const SIGNUP_EMAILS = [
  {
    field: "notifyMagazine",
    label: "Tell me when the magazine launches",
  },
  {
    field: "notifyPacks",
    label: "Tell me when the educational packs launch",
  },
  {
    field: "weeklyDigest",
    label: "Send me a weekly digest of new articles on my interests",
  },
] as const;

export const EMPTY_REGISTRATION: RegistrationFields = {
  firstName: "",
  lastName: "",
  email: "",
  password: "",
  confirmPassword: "",
  age: "",
  country: "",
  interests: [],
  notifyMagazine: false,
  notifyPacks: false,
  weeklyDigest: false,
};

export const REGISTRATION_FAILED = "Registration Failed";

export const PASSWORD_MISMATCH: ToastText = {
  title: REGISTRATION_FAILED,
  message: "Passwords do not match.",
};

export const PASSWORD_TOO_SHORT: ToastText = {
  title: REGISTRATION_FAILED,
  message: `Password must be at least ${MIN_PASSWORD_CHARS} characters long.`,
};

export const PASSWORD_TOO_LONG: ToastText = {
  title: REGISTRATION_FAILED,
  message: `Password must be at most ${MAX_PASSWORD_CHARS} characters long.`,
};

/** The server's wording; the age input's own range stops most of these. */
export const INVALID_AGE: ToastText = {
  title: "Invalid Age",
  message: "Age must be between 13 and 25.",
};

/** The first problem, in the server's order too; null when the form can be sent. */
export function validateRegistration(
  fields: RegistrationFields,
): ToastText | null {
  const problem = registrationProblem(fields);
  return problem && { title: problem.title, message: problem.message };
}

export const REGISTRATION_REQUIRED = [
  "firstName",
  "lastName",
  "email",
  "password",
  "confirmPassword",
] as const;

/** The field each of the server's codes is about. */
export const REGISTRATION_CODES: Partial<Record<string, string>> = {
  invalid_email: "email",
  email_required: "email",
  password_mismatch: "confirmPassword",
  password_too_short: "password",
  password_too_long: "password",
  invalid_age: "age",
  unknown_interest: "interests",
};

/** The typed fields (text and interests), without the email choices. */
export function typedFields(
  fields: RegistrationFields,
): Record<string, string | readonly string[]> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => typeof v !== "boolean"),
  ) as Record<string, string | readonly string[]>;
}

/** The first problem and the fields at fault (the server's order). */
export function registrationProblem(
  fields: RegistrationFields,
): Problem | null {
  const missing = emptyFields(typedFields(fields), REGISTRATION_REQUIRED);
  if (missing.length > 0) return { ...MISSING_INFORMATION, fields: missing };
  if (!isValidEmail(fields.email.trim()))
    return { ...INVALID_EMAIL, fields: ["email"] };
  if (fields.password !== fields.confirmPassword)
    return { ...PASSWORD_MISMATCH, fields: ["confirmPassword"] };
  // Characters, not UTF-16 units, as the server counts them.
  const chars = [...fields.password].length;
  if (chars < MIN_PASSWORD_CHARS) {
    return { ...PASSWORD_TOO_SHORT, fields: ["password"] };
  }
  if (chars > MAX_PASSWORD_CHARS) {
    return { ...PASSWORD_TOO_LONG, fields: ["password"] };
  }
  const age = fields.age.trim();
  if (age !== "") {
    const years = Number(age);
    if (!Number.isInteger(years) || years < MIN_AGE || years > MAX_AGE) {
      return { ...INVALID_AGE, fields: ["age"] };
    }
  }
  return null;
}

/** The fields as a form posted without JavaScript sent them (passwords are never kept). */
export function registrationFromAnswer(
  answer: FormAnswer | undefined,
): RegistrationFields {
  return {
    firstName: answered(answer, "first_name"),
    lastName: answered(answer, "last_name"),
    email: answered(answer, "email"),
    password: "",
    confirmPassword: "",
    age: answered(answer, "age"),
    country: answered(answer, "country"),
    interests: answeredList(answer, "interests"),
    notifyMagazine: answered(answer, "notify_magazine") !== "",
    notifyPacks: answered(answer, "notify_packs") !== "",
    weeklyDigest: answered(answer, "weekly_digest") !== "",
  };
}

/** The name each field is posted under (the API's). */
export const REGISTRATION_POSTED: Record<keyof RegistrationFields, string> = {
  firstName: "first_name",
  lastName: "last_name",
  email: "email",
  password: "password",
  confirmPassword: "confirm_password",
  age: "age",
  country: "country",
  interests: "interests",
  notifyMagazine: "notify_magazine",
  notifyPacks: "notify_packs",
  weeklyDigest: "weekly_digest",
};

/** The request body; the password is sent as typed, the optional fields only when given. */
export function registrationInput(
  fields: RegistrationFields,
  website: string,
): RegistrationInput {
  const age = fields.age.trim();
  const country = fields.country.trim();
  return {
    first_name: fields.firstName.trim(),
    last_name: fields.lastName.trim(),
    email: fields.email.trim(),
    password: fields.password,
    confirm_password: fields.confirmPassword,
    age: age === "" ? undefined : Number(age),
    country: country === "" ? undefined : country,
    interests: fields.interests.filter(isInterest),
    notify_magazine: fields.notifyMagazine,
    notify_packs: fields.notifyPacks,
    weekly_digest: fields.weeklyDigest,
    website,
  };
}
