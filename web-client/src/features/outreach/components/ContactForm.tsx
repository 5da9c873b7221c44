import { useState, type FormEvent } from "react";
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
import {
  DoneMessage,
  ProblemSummary,
  useFormProblem,
} from "@/components/FormAnswer";
import { useFormAnswer } from "@/lib/form-answer";
import { messageFor, serverProblem } from "@/lib/problems";

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

/** "Send Us a Message" on the contact page (also a plain form without JavaScript). */
export function ContactForm() {
  const answer = useFormAnswer();
  const [fields, setFields] = useState<ContactFields>(() =>
    answer?.error ? contactFromAnswer(answer) : contactFromAnswer(undefined),
  );
  const { problem, setProblem, refuse } = useFormProblem(
    () =>
      answer?.error
        ? serverProblem(answer.error, {
            title: FAILED,
            values: { ...contactFromAnswer(answer) },
            required: CONTACT_REQUIRED,
            fieldOf: EMAIL_CODES,
          })
        : null,
    idOf,
  );
  const [sent, setSent] = useState(answer?.done !== undefined);
  const [website, setWebsite] = useState("");
  const [busy, setBusy] = useState(false);
  const toast = useToast();

  const text = (name: TextField) => ({
    id: idOf(name),
    name: POSTED[name],
    value: fields[name],
    error: messageFor(problem, name),
    onChange: (event: { target: { value: string } }) =>
      setFields((all) => ({ ...all, [name]: event.target.value })),
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = contactProblem(fields);
    if (found) {
      setSent(false);
      return refuse(found);
    }
    // Said missing by contactProblem above; narrowed here for the contract.
    const inquiryType = fields.inquiryType;
    if (!inquiryType) return;
    setBusy(true);
    const result = await sendContactMessage({
      first_name: fields.firstName.trim(),
      last_name: fields.lastName.trim(),
      email: fields.email.trim(),
      subject: fields.subject.trim(),
      inquiry_type: inquiryType,
      message: fields.message.trim(),
      website,
    });
    setBusy(false);
    setSent(false);
    if (result.ok) {
      setProblem(null);
      setSent(true);
      toast({ title: SENT, description: SENT_TEXT });
      setFields(contactFromAnswer(undefined));
      return;
    }
    refuse(
      result.refused
        ? serverProblem(result.refused, {
            title: FAILED,
            values: { ...fields },
            required: CONTACT_REQUIRED,
            fieldOf: EMAIL_CODES,
          })
        : { title: FAILED, message: GENERIC_ERROR, fields: [] },
    );
  }

  const typeError = messageFor(problem, "inquiryType");
  const messageError = messageFor(problem, "message");
  return (
    <form
      className="form contact-form"
      method="post"
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      {sent ? <DoneMessage title={SENT} text={SENT_TEXT} /> : null}
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
            setFields((all) => ({
              ...all,
              inquiryType: event.target.value as ContactFields["inquiryType"],
            }))
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
          value={fields.message}
          onChange={(event) =>
            setFields((all) => ({ ...all, message: event.target.value }))
          }
        />
        <FieldError id={idOf("message")} error={messageError} />
      </div>
      <Honeypot id="contact-website" value={website} onChange={setWebsite} />
      <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
        {busy ? "Sending..." : "Send Message"}
      </button>
    </form>
  );
}
