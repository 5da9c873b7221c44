import { describe, expect, it } from "vitest";
import { applicationFormData } from "./outreach";

describe("applicationFormData", () => {
  it("sends one part per role, the files, and leaves out empty answers", () => {
    const cv = new Blob(["%PDF-1.4"], { type: "application/pdf" });
    const form = applicationFormData(
      {
        full_name: "Ada",
        age: "16",
        country: "Kenya",
        email: "ada@school.example",
        time_zone: "Africa/Nairobi",
        weekly_availability: "4",
        english_level: "C1",
        why_join: "To learn.",
        contribution: "",
        roles: ["editorial-writer", "copy-editor"],
        additional: "",
        website: "",
      },
      { cv_file: cv },
    );
    expect(form.getAll("roles")).toEqual(["editorial-writer", "copy-editor"]);
    expect(form.get("full_name")).toBe("Ada");
    expect(form.has("additional")).toBe(false);
    // An empty answer is left out, required or not: the server names what is missing.
    expect(form.has("contribution")).toBe(false);
    expect(form.has("website")).toBe(false);
    expect(form.get("cv_file")).toBeInstanceOf(Blob);
  });
});
