import { useState, type FormEvent } from "react";
import { useToast } from "@/components/toast";
import { sendContactMessage } from "@/features/outreach/api/outreach";
import {
  EMPTY_CONTACT,
  validateContact,
  type ContactFields,
} from "@/features/outreach/validation";
import { Honeypot } from "./Honeypot";
import { InputField } from "@/components/InputField";

const GENERIC_ERROR = "Something went wrong. Please try again.";

type TextField = Exclude<keyof ContactFields, "inquiryType">;

/** "Send Us a Message" on the contact page. */
export function ContactForm() {
  const [fields, setFields] = useState<ContactFields>(EMPTY_CONTACT);
  const [website, setWebsite] = useState("");
  const [busy, setBusy] = useState(false);
  const toast = useToast();

  const text = (name: TextField) => ({
    id: `contact-${name}`,
    name,
    value: fields[name],
    onChange: (event: { target: { value: string } }) =>
      setFields((all) => ({ ...all, [name]: event.target.value })),
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const problem = validateContact(fields);
    if (problem) {
      toast({
        title: problem.title,
        description: problem.message,
        variant: "destructive",
      });
      return;
    }
    setBusy(true);
    const result = await sendContactMessage({
      first_name: fields.firstName.trim(),
      last_name: fields.lastName.trim(),
      email: fields.email.trim(),
      subject: fields.subject.trim(),
      inquiry_type: fields.inquiryType || undefined,
      message: fields.message.trim(),
      website,
    });
    setBusy(false);
    if (result.ok) {
      toast({
        title: "Message Sent Successfully!",
        description:
          "Thank you for your message. We'll get back to you within 24-48 hours.",
      });
      setFields(EMPTY_CONTACT);
      return;
    }
    toast({
      title: "Error Sending Message",
      description: result.refused?.message || GENERIC_ERROR,
      variant: "destructive",
    });
  }

  return (
    <form
      className="form contact-form"
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
      <InputField label="Subject" type="text" required {...text("subject")} />
      <div className="field">
        <label htmlFor="contact-inquiryType">Inquiry Type</label>
        <select
          id="contact-inquiryType"
          name="inquiryType"
          required
          value={fields.inquiryType}
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
      </div>
      <div className="field">
        <label htmlFor="contact-message">Message</label>
        <textarea rows={6} required {...text("message")} />
      </div>
      <Honeypot id="contact-website" value={website} onChange={setWebsite} />
      <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
        {busy ? "Sending..." : "Send Message"}
      </button>
    </form>
  );
}
