import { useToast } from "@/components/toast";
import { sendContactMessage } from "@/features/outreach/api/outreach";
import {
  CONTACT_REQUIRED,
  EMAIL_CODES,
  contactFromAnswer,
  contactProblem,
  type ContactFields,
} from "@/features/outreach/validation";
import { Honeypot } from "./Honeypot";
import { FieldError, InputField, invalidProps } from "@/components/InputField";
import { DoneMessage, ProblemSummary } from "@/components/FormAnswer";
import { useFormAnswer } from "@/lib/form-answer";
import { messageFor, serverProblem, type Problem } from "@/lib/problems";
import { useForm } from "@/lib/use-form";

const GENERIC_ERROR = "Something went wrong. Please try again.";
const SENT = "Message Sent Successfully!";
const SENT_TEXT =
  "Thank you for your message. We'll get back to you within 24-48 hours.";
const FAILED = "Error Sending Message";

type TextField = Exclude<keyof ContactFields, "inquiryType">;

const LABELS: Record<keyof ContactFields, string> = {
  firstName: "First Name",
  lastName: "Last Name",
  email: "Email",
  subject: "Subject",
  inquiryType: "Inquiry Type",
  message: "Message",
};

/** The name each field is posted under (the API's). */
const POSTED: Record<keyof ContactFields, string> = {
  firstName: "first_name",
  lastName: "last_name",
  email: "email",
  subject: "subject",
  inquiryType: "inquiry_type",
  message: "message",
};

const idOf = (field: string) => `contact-${field}`;

function problemOf(
  refused: { code?: string; title?: string; message: string },
  fields: ContactFields,
): Problem {
  return serverProblem(refused, {
    title: FAILED,
    values: { ...fields },
    required: CONTACT_REQUIRED,
    fieldOf: EMAIL_CODES,
  });
}

/** "Send Us a Message" on the contact page (also a plain form without JavaScript). */
export function ContactForm() {
  const answer = useFormAnswer();
  const toast = useToast();
  const blank = () => ({ ...contactFromAnswer(undefined), website: "" });
  const form = useForm({
    initial: () =>
      answer?.error ? { ...contactFromAnswer(answer), website: "" } : blank(),
    problem: () =>
      answer?.error ? problemOf(answer.error, contactFromAnswer(answer)) : null,
    done: answer?.done !== undefined,
    check: contactProblem,
    send: async (fields) => {
      // Said missing by contactProblem; narrowed here for the contract.
      const inquiryType = fields.inquiryType;
      if (!inquiryType) return { ok: false, refused: null } as const;
      return sendContactMessage({
        first_name: fields.firstName.trim(),
        last_name: fields.lastName.trim(),
        email: fields.email.trim(),
        subject: fields.subject.trim(),
        inquiry_type: inquiryType,
        message: fields.message.trim(),
        website: fields.website,
      });
    },
    refused: ({ refused }, fields) =>
      refused
        ? problemOf(refused, fields)
        : { title: FAILED, message: GENERIC_ERROR, fields: [] },
    onDone: () => {
      toast({ title: SENT, description: SENT_TEXT });
      form.reset(blank());
    },
    idOf,
  });
  const { fields, problem, busy } = form;

  const text = (name: TextField) => ({
    id: idOf(name),
    name: POSTED[name],
    error: messageFor(problem, name),
    ...form.bind(name),
  });

  const typeError = messageFor(problem, "inquiryType");
  const messageError = messageFor(problem, "message");
  return (
    <form
      className="form contact-form"
      method="post"
      noValidate
      onSubmit={form.submit}
    >
      {form.done ? <DoneMessage title={SENT} text={SENT_TEXT} /> : null}
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
      <InputField label="Subject" type="text" required {...text("subject")} />
      <div className="field">
        <label htmlFor={idOf("inquiryType")}>Inquiry Type</label>
        <select
          id={idOf("inquiryType")}
          name={POSTED.inquiryType}
          required
          value={fields.inquiryType}
          {...invalidProps(idOf("inquiryType"), typeError)}
          onChange={(event) =>
            form.set(
              "inquiryType",
              event.target.value as ContactFields["inquiryType"],
            )
          }
        >
          <option value="" disabled>
            Select an inquiry type
          </option>
          <option value="general">General Inquiry</option>
          <option value="education">Education / Packs</option>
        </select>
        <FieldError id={idOf("inquiryType")} error={typeError} />
      </div>
      <div className="field">
        <label htmlFor={idOf("message")}>Message</label>
        <textarea
          rows={6}
          required
          {...invalidProps(idOf("message"), messageError)}
          id={idOf("message")}
          name={POSTED.message}
          {...form.bind("message")}
        />
        <FieldError id={idOf("message")} error={messageError} />
      </div>
      <Honeypot
        id="contact-website"
        value={form.fields.website}
        onChange={(value) => form.set("website", value)}
      />
      <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
        {busy ? "Sending..." : "Send Message"}
      </button>
    </form>
  );
}
