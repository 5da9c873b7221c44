import { describe, expect, it } from "vitest";
import {
  MISSING_FIELD,
  emptyFields,
  messageFor,
  serverProblem,
} from "@/lib/problems";
import {
  answered,
  answeredList,
  doneMessage,
  type FormAnswer,
} from "@/lib/form-answer";
import {
  EMAIL_CODES,
  CONTACT_REQUIRED,
  contactFromAnswer,
  contactProblem,
} from "@/features/outreach/validation";
import {
  APPLICATION_ANSWERS,
  APPLICATION_CODES,
  APPLICATION_REQUIRED,
  EMPTY_APPLICATION,
} from "@/features/outreach/application";

const filled = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.org",
  subject: "Hello",
  inquiryType: "general" as const,
  message: "A question.",
};

describe("problems name the fields at fault", () => {
  it("lists every empty required field, in order", () => {
    const problem = contactProblem({ ...filled, lastName: " ", message: "" });
    expect(problem).toEqual({
      title: "Missing Information",
      message: "Please fill in all required fields.",
      fields: ["lastName", "message"],
    });
    expect(messageFor(problem, "lastName")).toBe(MISSING_FIELD);
    expect(messageFor(problem, "email")).toBeUndefined();
  });

  it("says a field's own message where it has one", () => {
    const problem = {
      title: "Error",
      message: "Failed to save article: Title is required",
      fields: ["title"],
      messages: { title: "Title is required" },
    };
    expect(messageFor(problem, "title")).toBe("Title is required");
    expect(messageFor({ ...problem, fields: [] }, "title")).toBeUndefined();
  });

  it("marks the email alone when only it is wrong, with the product's words", () => {
    const problem = contactProblem({ ...filled, email: "ada@example" });
    expect(problem?.fields).toEqual(["email"]);
    expect(messageFor(problem, "email")).toBe(
      "Please enter a valid email address.",
    );
  });

  it("reads a server refusal into fields", () => {
    const values = { ...filled, subject: "" };
    expect(
      serverProblem(
        {
          code: "missing_information",
          title: "Missing Information",
          message: "Please fill in all required fields.",
        },
        {
          title: "x",
          values,
          required: CONTACT_REQUIRED,
          fieldOf: EMAIL_CODES,
        },
      ).fields,
    ).toEqual(["subject"]);
    expect(
      serverProblem(
        {
          code: "invalid_email",
          message: "Please enter a valid email address.",
        },
        { title: "Fallback", values, required: [], fieldOf: EMAIL_CODES },
      ),
    ).toEqual({
      title: "Fallback",
      message: "Please enter a valid email address.",
      fields: ["email"],
    });
  });

  it("tells unanswered questions apart from missing details on the application", () => {
    const values = {
      ...EMPTY_APPLICATION,
      fullName: "Ada",
      whyJoin: "Because",
    };
    const problem = serverProblem(
      {
        code: "missing_answers",
        message: "Please answer all required questions.",
      },
      {
        title: "x",
        values,
        required: APPLICATION_REQUIRED,
        answers: APPLICATION_ANSWERS,
        fieldOf: APPLICATION_CODES,
      },
    );
    expect(problem.fields).toEqual(["contribution"]);
    expect(emptyFields({ roles: [] }, ["roles"])).toEqual(["roles"]);
  });
});

describe("a form's answer from the server", () => {
  const answer: FormAnswer = {
    intent: "",
    values: {
      first_name: "Ada",
      email: "ada@example",
      inquiry_type: "education",
      interests: ["Human Rights", "Climate Justice"],
    },
    error: {
      code: "invalid_email",
      message: "Please enter a valid email address.",
    },
  };

  it("fills the form in again as typed", () => {
    expect(contactFromAnswer(answer)).toEqual({
      firstName: "Ada",
      lastName: "",
      email: "ada@example",
      subject: "",
      inquiryType: "education",
      message: "",
    });
    expect(answered(answer, "interests")).toBe("Climate Justice");
    expect(answeredList(answer, "interests")).toEqual([
      "Human Rights",
      "Climate Justice",
    ]);
    expect(answeredList(answer, "first_name")).toEqual(["Ada"]);
  });

  it("ignores an inquiry type the form does not offer", () => {
    expect(
      contactFromAnswer({ ...answer, values: { inquiry_type: "spam" } })
        .inquiryType,
    ).toBe("");
  });

  it("reads the success message", () => {
    expect(
      doneMessage({ intent: "", values: {}, done: { message: "Sent" } }),
    ).toBe("Sent");
    expect(doneMessage({ intent: "", values: {}, done: null })).toBe("");
  });
});
