import { describe, expect, it } from "vitest";
import {
  EMPTY_REGISTRATION,
  INVALID_AGE,
  PASSWORD_MISMATCH,
  PASSWORD_TOO_SHORT,
  registrationInput,
  validateRegistration,
  type RegistrationFields,
} from "./registration";
import { INVALID_EMAIL, MISSING_INFORMATION } from "./validation";

const filled: RegistrationFields = {
  ...EMPTY_REGISTRATION,
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.org",
  password: "secret1",
  confirmPassword: "secret1",
};

describe("validateRegistration", () => {
  it("accepts the required fields alone", () => {
    expect(validateRegistration(filled)).toBeNull();
  });

  it.each([
    "firstName",
    "lastName",
    "email",
    "password",
    "confirmPassword",
  ] as const)("requires %s", (key) => {
    expect(validateRegistration({ ...filled, [key]: "  " })).toEqual(
      MISSING_INFORMATION,
    );
  });

  it("rejects a malformed email", () => {
    expect(validateRegistration({ ...filled, email: "ada@example" })).toEqual({
      title: "Invalid Email",
      message: "Please enter a valid email address.",
    });
  });

  it("requires matching passwords", () => {
    expect(
      validateRegistration({ ...filled, confirmPassword: "secret2" }),
    ).toEqual({
      title: "Registration Failed",
      message: "Passwords do not match.",
    });
  });

  it("requires 6 characters", () => {
    const short = { ...filled, password: "abc12", confirmPassword: "abc12" };
    expect(validateRegistration(short)).toEqual({
      title: "Registration Failed",
      message: "Password must be at least 6 characters long.",
    });
    // Counted in characters: five emoji are five, not ten.
    const emoji = "😀😀😀😀😀";
    expect(
      validateRegistration({
        ...filled,
        password: emoji,
        confirmPassword: emoji,
      }),
    ).toEqual(PASSWORD_TOO_SHORT);
  });

  it("takes the password's limits from the contract", () => {
    // The server's words for each limit, with the contract's numbers in them.
    expect(PASSWORD_TOO_SHORT.message).toBe(
      "Password must be at least 6 characters long.",
    );
    const long = "a".repeat(129);
    expect(
      validateRegistration({
        ...filled,
        password: long,
        confirmPassword: long,
      }),
    ).toEqual({
      title: "Registration Failed",
      message: "Password must be at most 128 characters long.",
    });
    const longest = "a".repeat(128);
    expect(
      validateRegistration({
        ...filled,
        password: longest,
        confirmPassword: longest,
      }),
    ).toBeNull();
  });

  it("checks in order: missing, email, mismatch, length", () => {
    let form: RegistrationFields = {
      ...EMPTY_REGISTRATION,
      email: "bad",
      password: "abc",
      confirmPassword: "abcd",
    };
    const steps: [unknown, Partial<RegistrationFields>][] = [
      [MISSING_INFORMATION, { firstName: "Ada", lastName: "L" }],
      [INVALID_EMAIL, { email: "ada@example.org" }],
      [PASSWORD_MISMATCH, { confirmPassword: "abc" }],
      [PASSWORD_TOO_SHORT, { password: "abcdef", confirmPassword: "abcdef" }],
    ];
    for (const [expected, fix] of steps) {
      expect(validateRegistration(form)).toEqual(expected);
      form = { ...form, ...fix };
    }
    expect(validateRegistration(form)).toBeNull();
  });

  it.each(["12", "26", "15.5"])("refuses the age %s", (age) => {
    expect(validateRegistration({ ...filled, age })).toEqual(INVALID_AGE);
  });

  it.each(["13", "25", ""])("allows the age %j", (age) => {
    expect(validateRegistration({ ...filled, age })).toBeNull();
  });
});

describe("registrationInput", () => {
  it("leaves out the optional fields when empty", () => {
    const body = registrationInput(filled, "");
    expect(body).toMatchObject({
      first_name: "Ada",
      email: "ada@example.org",
      password: "secret1",
      confirm_password: "secret1",
      interests: [],
      website: "",
    });
    expect(JSON.parse(JSON.stringify(body))).not.toHaveProperty("age");
    expect(JSON.parse(JSON.stringify(body))).not.toHaveProperty("country");
  });

  it("sends the age as a number and the chosen interests", () => {
    const body = registrationInput(
      {
        ...filled,
        age: " 16 ",
        country: " Kenya ",
        interests: ["Human Rights", "Digital Politics"],
      },
      "",
    );
    expect(body.age).toBe(16);
    expect(body.country).toBe("Kenya");
    expect(body.interests).toEqual(["Human Rights", "Digital Politics"]);
  });
});
