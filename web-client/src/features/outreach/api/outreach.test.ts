import { describe, expect, it } from "vitest";
import { applicationFormData } from "./outreach";

describe("applicationFormData", () => {
  it("sends one part per role, the files, and leaves out empty answers", () => {
    const cv = new Blob(["%PDF-1.4"], { type: "application/pdf" });
    const form = applicationFormData(
      {
        full_name: "Ada",
        roles: ["editorial-writer", "copy-editor"],
        additional: "",
        website: "",
      },
      { cv_file: cv },
    );
    expect(form.getAll("roles")).toEqual(["editorial-writer", "copy-editor"]);
    expect(form.get("full_name")).toBe("Ada");
    expect(form.has("additional")).toBe(false);
    expect(form.has("website")).toBe(false);
    expect(form.get("cv_file")).toBeInstanceOf(Blob);
  });
});
