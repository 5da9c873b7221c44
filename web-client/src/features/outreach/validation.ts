/** Client checks for the notify dialog and the contact form (spec §5). */
import { answered, type FormAnswer } from "@/lib/form-answer";
import { emptyFields, type Problem } from "@/lib/problems";

export interface ToastText {
  title: string;
  message: string;
  /** The server's stable code, when the server said it. */
  code?: string;
}

/** No spaces, exactly one at-sign, and a dot inside the domain. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email);
}

export const EMAIL_REQUIRED: ToastText = {
  title: "Email required",
  message: "Please enter your email address.",
};

export const MISSING_INFORMATION: ToastText = {
  title: "Missing Information",
  message: "Please fill in all required fields.",
};

export const INVALID_EMAIL: ToastText = {
  title: "Invalid Email",
  message: "Please enter a valid email address.",
};

/** The notify dialog only requires an email; the server checks its shape. */
export function validateNotify(email: string): ToastText | null {
  return email.trim() === "" ? EMAIL_REQUIRED : null;
}

export interface ContactFields {
  firstName: string;
  lastName: string;
  email: string;
  subject: string;
  /** "" until the reader picks one. */
  inquiryType: "" | "general" | "education";
  message: string;
}

export const EMPTY_CONTACT: ContactFields = {
  firstName: "",
  lastName: "",
  email: "",
  subject: "",
  inquiryType: "",
  message: "",
};

/** The first problem in the spec's order, or null when the form can be sent. */
export function validateContact(fields: ContactFields): ToastText | null {
  const problem = contactProblem(fields);
  return problem && { title: problem.title, message: problem.message };
}

/** Every contact field is required. */
export const CONTACT_REQUIRED = [
  "firstName",
  "lastName",
  "email",
  "subject",
  "inquiryType",
  "message",
] as const;

/** The first problem and the fields at fault, or null when the form can be sent. */
export function contactProblem(fields: ContactFields): Problem | null {
  const missing = emptyFields({ ...fields }, CONTACT_REQUIRED);
  if (missing.length > 0) return { ...MISSING_INFORMATION, fields: missing };
  if (!isValidEmail(fields.email.trim()))
    return { ...INVALID_EMAIL, fields: ["email"] };
  return null;
}

/** The contact fields as a form posted without JavaScript sent them. */
export function contactFromAnswer(
  answer: FormAnswer | undefined,
): ContactFields {
  const type = answered(answer, "inquiry_type");
  return {
    firstName: answered(answer, "first_name"),
    lastName: answered(answer, "last_name"),
    email: answered(answer, "email"),
    subject: answered(answer, "subject"),
    inquiryType: type === "general" || type === "education" ? type : "",
    message: answered(answer, "message"),
  };
}

/** Fields a server code is about, on forms asking for an email. */
export const EMAIL_CODES: Partial<Record<string, string>> = {
  invalid_email: "email",
  email_required: "email",
};
