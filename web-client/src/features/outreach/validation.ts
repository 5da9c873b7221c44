/** Client checks for the notify dialog and the contact form (spec §5). */

export interface ToastText {
  title: string;
  message: string;
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
  if (Object.values(fields).some((value) => value.trim() === "")) {
    return MISSING_INFORMATION;
  }
  if (!isValidEmail(fields.email.trim())) return INVALID_EMAIL;
  return null;
}
