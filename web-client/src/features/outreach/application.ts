/** The contributor application: its fields and the client checks (spec §5, in order). */
import { answered, answeredList, type FormAnswer } from "@/lib/form-answer";
import { emptyFields, type Problem } from "@/lib/problems";
import type {
  ApplicationText,
  UploadPart,
} from "@/features/outreach/api/outreach";
import {
  INVALID_EMAIL,
  MISSING_INFORMATION,
  isValidEmail,
  type ToastText,
} from "@/features/outreach/validation";

export const ENGLISH_LEVELS = ["B2", "C1", "C2", "Native"] as const;
export type EnglishLevel = (typeof ENGLISH_LEVELS)[number];

export const MIN_AGE = 14;
export const MIN_WEEKLY_HOURS = 1;
/** The server's limit too: a week has 168 hours. */
export const MAX_WEEKLY_HOURS = 168;

export interface ApplicationFields {
  fullName: string;
  age: string;
  country: string;
  email: string;
  timeZone: string;
  weeklyAvailability: string;
  /** "" until the applicant picks one. */
  englishLevel: "" | EnglishLevel;
  howDidYouHear: string;
  previousExperience: string;
  /** Role ids from `ROLES`. */
  roles: readonly string[];
  /** Links, each the alternative to the matching file. */
  portfolio: string;
  writingSamples: string;
  researchSamples: string;
  whyJoin: string;
  contribution: string;
  additional: string;
}

export const EMPTY_APPLICATION: ApplicationFields = {
  fullName: "",
  age: "",
  country: "",
  email: "",
  timeZone: "",
  weeklyAvailability: "",
  englishLevel: "",
  howDidYouHear: "",
  previousExperience: "",
  roles: [],
  portfolio: "",
  writingSamples: "",
  researchSamples: "",
  whyJoin: "",
  contribution: "",
  additional: "",
};

/** The documents that are a link or a file, never both. */
export type SampleKind = "portfolio" | "writingSamples" | "researchSamples";
export type DocumentKind = "cv" | SampleKind;
export const SAMPLE_KINDS: readonly SampleKind[] = [
  "portfolio",
  "writingSamples",
  "researchSamples",
];

/** What the checks need to know of a chosen file (a `File` in the browser). */
export interface ChosenFile {
  name: string;
  size: number;
}

export type ApplicationFiles<F extends ChosenFile = ChosenFile> = Record<
  DocumentKind,
  F | null
>;

export const NO_FILES: ApplicationFiles<never> = {
  cv: null,
  portfolio: null,
  writingSamples: null,
  researchSamples: null,
};

/** Which sample sections the selected roles show (spec §2). */
export function samplesFor(
  roles: readonly string[],
): Record<SampleKind, boolean> {
  const any = (...ids: string[]) => ids.some((id) => roles.includes(id));
  return {
    portfolio: any("graphic-designer", "design-director"),
    writingSamples: any("editorial-writer", "educational-pack-developer"),
    researchSamples: any("research-assistant"),
  };
}

export const DOCUMENT_ACCEPT = ".pdf,.doc,.docx";
export const DOCUMENT_HINT = "PDF, DOC or DOCX, up to 10MB";
/** The server's per-file limit. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** How each document is named in messages, as the server names it. */
export const DOCUMENT_LABELS: Record<DocumentKind, string> = {
  cv: "CV",
  portfolio: "portfolio",
  writingSamples: "writing samples",
  researchSamples: "research samples",
};

/**
 * Whether a chosen file can be sent: the server checks the content, this only
 * spares a round trip for the wrong extension, an empty file or one over 10 MB.
 */
export function checkDocument(
  kind: DocumentKind,
  file: ChosenFile,
): ToastText | null {
  const label = DOCUMENT_LABELS[kind];
  if (!/\.(pdf|docx?)$/i.test(file.name)) {
    return {
      title: "Unsupported File",
      message: `Your ${label} must be a PDF, DOC or DOCX file.`,
    };
  }
  if (file.size === 0) {
    return {
      title: "Empty File",
      message: `Your ${label} file is empty. Please choose the file again.`,
    };
  }
  if (file.size > MAX_DOCUMENT_BYTES) {
    return {
      title: "File Too Large",
      message: `Your ${label} file is larger than 10 MB. Please upload a smaller file.`,
    };
  }
  return null;
}

/** A web address as the server accepts it: http(s), a dot, no spaces. */
export function isWebLink(link: string): boolean {
  const rest = /^https?:\/\/(.*)$/i.exec(link)?.[1];
  return (
    rest !== undefined &&
    rest.length > 2 &&
    rest.includes(".") &&
    !/\s/.test(rest)
  );
}

export const AGE_REQUIREMENT: ToastText = {
  title: "Age Requirement",
  message: "You must be at least 14 years old to apply.",
};

export const ROLE_REQUIRED: ToastText = {
  title: "Role Required",
  message: "Please select at least one role you're applying for.",
};

export const PORTFOLIO_REQUIRED: ToastText = {
  title: "Portfolio Required",
  message:
    "Portfolio is required when applying for Graphic Designer or Design Director role.",
};

export const WRITING_SAMPLES_REQUIRED: ToastText = {
  title: "Writing Samples Required",
  message:
    "Writing samples are required when applying for Editorial Writer or Educational Pack Developer role.",
};

export const MISSING_ANSWERS: ToastText = {
  title: "Missing Information",
  message: "Please answer all required questions.",
};

const blank = (value: string) => value.trim() === "";

/** The first problem in the spec's order, then the files; null when it can be sent. */
export function validateApplication(
  fields: ApplicationFields,
  files: ApplicationFiles,
): ToastText | null {
  const problem = applicationProblem(fields, files);
  return problem && { title: problem.title, message: problem.message };
}

export const APPLICATION_REQUIRED = [
  "fullName",
  "age",
  "country",
  "email",
  "timeZone",
  "weeklyAvailability",
  "englishLevel",
] as const;
export const APPLICATION_ANSWERS = ["whyJoin", "contribution"] as const;

/** The field each of the server's codes is about. */
export const APPLICATION_CODES: Partial<Record<string, string>> = {
  invalid_email: "email",
  email_required: "email",
  invalid_age: "age",
  age_requirement: "age",
  invalid_availability: "weeklyAvailability",
  invalid_english_level: "englishLevel",
  role_required: "roles",
  unknown_role: "roles",
  portfolio_required: "portfolio",
  writing_samples_required: "writingSamples",
};

/** The first problem and the fields at fault, in the spec's order, then the files. */
export function applicationProblem(
  fields: ApplicationFields,
  files: ApplicationFiles,
): Problem | null {
  const missing = emptyFields({ ...fields }, APPLICATION_REQUIRED);
  if (missing.length > 0) return { ...MISSING_INFORMATION, fields: missing };
  if (Number(fields.age.trim()) < MIN_AGE)
    return { ...AGE_REQUIREMENT, fields: ["age"] };
  if (fields.roles.length === 0) return { ...ROLE_REQUIRED, fields: ["roles"] };
  const shown = samplesFor(fields.roles);
  const given = (kind: SampleKind) =>
    !blank(fields[kind]) || files[kind] !== null;
  if (shown.portfolio && !given("portfolio"))
    return { ...PORTFOLIO_REQUIRED, fields: ["portfolio"] };
  if (shown.writingSamples && !given("writingSamples")) {
    return { ...WRITING_SAMPLES_REQUIRED, fields: ["writingSamples"] };
  }
  const unanswered = emptyFields({ ...fields }, APPLICATION_ANSWERS);
  if (unanswered.length > 0) {
    return { ...MISSING_ANSWERS, fields: unanswered };
  }
  if (!isValidEmail(fields.email.trim()))
    return { ...INVALID_EMAIL, fields: ["email"] };
  // Beyond the spec, as the server checks: links and files that it would refuse.
  for (const kind of SAMPLE_KINDS) {
    const link = fields[kind].trim();
    if (
      shown[kind] &&
      files[kind] === null &&
      link !== "" &&
      !isWebLink(link)
    ) {
      return {
        title: "Invalid Link",
        message: `Please enter a full link starting with https:// for your ${DOCUMENT_LABELS[kind]}.`,
        fields: [kind],
      };
    }
  }
  for (const kind of sentDocuments(fields.roles)) {
    const file = files[kind];
    const problem = file ? checkDocument(kind, file) : null;
    if (problem) return { ...problem, fields: [] };
  }
  return null;
}

/** The fields as a form posted without JavaScript sent them (files are not kept). */
export function applicationFromAnswer(
  answer: FormAnswer | undefined,
): ApplicationFields {
  const level = answered(answer, "english_level");
  return {
    fullName: answered(answer, "full_name"),
    age: answered(answer, "age"),
    country: answered(answer, "country"),
    email: answered(answer, "email"),
    timeZone: answered(answer, "time_zone"),
    weeklyAvailability: answered(answer, "weekly_availability"),
    englishLevel: (ENGLISH_LEVELS as readonly string[]).includes(level)
      ? (level as EnglishLevel)
      : "",
    howDidYouHear: answered(answer, "how_did_you_hear"),
    previousExperience: answered(answer, "previous_experience"),
    roles: answeredList(answer, "roles"),
    portfolio: answered(answer, "portfolio"),
    writingSamples: answered(answer, "writing_samples"),
    researchSamples: answered(answer, "research_samples"),
    whyJoin: answered(answer, "why_join"),
    contribution: answered(answer, "contribution"),
    additional: answered(answer, "additional"),
  };
}

/** The name each field is posted under (the API's part names). */
export const APPLICATION_POSTED: Record<keyof ApplicationFields, string> = {
  fullName: "full_name",
  age: "age",
  country: "country",
  email: "email",
  timeZone: "time_zone",
  weeklyAvailability: "weekly_availability",
  englishLevel: "english_level",
  howDidYouHear: "how_did_you_hear",
  previousExperience: "previous_experience",
  roles: "roles",
  portfolio: "portfolio",
  writingSamples: "writing_samples",
  researchSamples: "research_samples",
  whyJoin: "why_join",
  contribution: "contribution",
  additional: "additional",
};

export { UPLOAD_PARTS };

/** The documents the form sends: the CV and the sample sections on show. */
export function sentDocuments(roles: readonly string[]): DocumentKind[] {
  const shown = samplesFor(roles);
  return ["cv", ...SAMPLE_KINDS.filter((kind) => shown[kind])];
}

export const APPLICATION_SUBMITTED = "Application Submitted!";

/** The success toast's text (spec §8), with the count of files the server stored. */
export function submittedMessage(attachments: number): string {
  const thanks =
    "Thank you for your interest. We'll review your application and contact you soon.";
  return attachments > 0
    ? `${thanks} ${attachments} file(s) were attached.`
    : thanks;
}

const UPLOAD_PARTS: Record<DocumentKind, UploadPart> = {
  cv: "cv_file",
  portfolio: "portfolio_file",
  writingSamples: "writing_samples_file",
  researchSamples: "research_samples_file",
};

/**
 * What is sent: trimmed answers, and only the sample sections on show, so a
 * link or file left behind by a role unticked later is not sent.
 */
export function applicationRequest<F extends ChosenFile>(
  fields: ApplicationFields,
  files: ApplicationFiles<F>,
  website: string,
): { text: ApplicationText; uploads: Partial<Record<UploadPart, F>> } {
  const shown = samplesFor(fields.roles);
  const link = (kind: SampleKind) =>
    shown[kind] && files[kind] === null ? fields[kind].trim() : "";
  const uploads: Partial<Record<UploadPart, F>> = {};
  for (const kind of sentDocuments(fields.roles)) {
    const file = files[kind];
    if (file) uploads[UPLOAD_PARTS[kind]] = file;
  }
  return {
    text: {
      full_name: fields.fullName.trim(),
      age: fields.age.trim(),
      country: fields.country.trim(),
      email: fields.email.trim(),
      time_zone: fields.timeZone.trim(),
      weekly_availability: fields.weeklyAvailability.trim(),
      english_level: fields.englishLevel,
      how_did_you_hear: fields.howDidYouHear.trim(),
      previous_experience: fields.previousExperience.trim(),
      roles: [...fields.roles],
      portfolio: link("portfolio"),
      writing_samples: link("writingSamples"),
      research_samples: link("researchSamples"),
      why_join: fields.whyJoin.trim(),
      contribution: fields.contribution.trim(),
      additional: fields.additional.trim(),
      website,
    },
    uploads,
  };
}
