import { describe, expect, it } from "vitest";
import {
  EMPTY_CONTACT,
  INVALID_EMAIL,
  MISSING_INFORMATION,
  isValidEmail,
  validateContact,
  validateNotify,
  type ContactFields,
} from "./validation";

const filled: ContactFields = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.org",
  subject: "Hello",
  inquiryType: "general",
  message: "A question about the packs.",
};

describe("isValidEmail", () => {
  it.each(["ada@example.org", "a.b+c@mail.school.edu"])("accepts %s", (e) => {
    expect(isValidEmail(e)).toBe(true);
  });

  it.each([
    "",
    "ada",
    "ada@example",
    "ada @example.org",
    "a@b@c.org",
    "@x.org",
  ])("rejects %j", (e) => {
    expect(isValidEmail(e)).toBe(false);
  });
});

describe("validateNotify", () => {
  it("requires an email", () => {
    expect(validateNotify("  ")).toEqual({
      title: "Email required",
      message: "Please enter your email address.",
    });
    expect(validateNotify("ada@example.org")).toBeNull();
  });
});

describe("validateContact", () => {
  it("accepts a complete form", () => {
    expect(validateContact(filled)).toBeNull();
  });

  it("reports an empty form as missing information", () => {
    expect(validateContact(EMPTY_CONTACT)).toEqual(MISSING_INFORMATION);
  });

  it.each(Object.keys(filled) as (keyof ContactFields)[])(
    "requires %s",
    (key) => {
      expect(validateContact({ ...filled, [key]: " " })).toEqual(
        MISSING_INFORMATION,
      );
    },
  );

  it("checks missing fields before the email shape", () => {
    expect(validateContact({ ...filled, email: "bad", subject: "" })).toEqual(
      MISSING_INFORMATION,
    );
  });

  it("rejects a malformed email", () => {
    expect(validateContact({ ...filled, email: "ada@example" })).toEqual(
      INVALID_EMAIL,
    );
  });
});
