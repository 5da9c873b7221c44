import { describe, expect, it } from "vitest";
import {
  AGE_REQUIREMENT,
  EMPTY_APPLICATION,
  MISSING_ANSWERS,
  NO_FILES,
  PORTFOLIO_REQUIRED,
  ROLE_REQUIRED,
  WRITING_SAMPLES_REQUIRED,
  applicationRequest,
  checkDocument,
  isWebLink,
  samplesFor,
  submittedMessage,
  validateApplication,
  type ApplicationFields,
  type ApplicationFiles,
  type ChosenFile,
} from "./application";
import { INVALID_EMAIL, MISSING_INFORMATION } from "./validation";

const filled: ApplicationFields = {
  ...EMPTY_APPLICATION,
  fullName: "Ada Student",
  age: "16",
  country: "Kenya",
  email: "ada@school.example",
  timeZone: "Africa/Nairobi",
  weeklyAvailability: "4",
  englishLevel: "C1",
  roles: ["copy-editor"],
  whyJoin: "To learn.",
  contribution: "Careful edits.",
};

const pdf: ChosenFile = { name: "samples.pdf", size: 2048 };

function withFiles(files: Partial<ApplicationFiles>): ApplicationFiles {
  return { ...NO_FILES, ...files };
}

describe("samplesFor", () => {
  it("shows no sample section for roles that need none", () => {
    expect(samplesFor(["copy-editor"])).toEqual({
      portfolio: false,
      writingSamples: false,
      researchSamples: false,
    });
  });

  it.each([
    ["graphic-designer", "portfolio"],
    ["design-director", "portfolio"],
    ["editorial-writer", "writingSamples"],
    ["educational-pack-developer", "writingSamples"],
    ["research-assistant", "researchSamples"],
  ])("%s shows %s", (role, section) => {
    expect(samplesFor([role])).toMatchObject({ [section]: true });
  });
});

describe("validateApplication", () => {
  it("accepts a complete application", () => {
    expect(validateApplication(filled, NO_FILES)).toBeNull();
  });

  it("reports an empty form as missing information", () => {
    expect(validateApplication(EMPTY_APPLICATION, NO_FILES)).toEqual(
      MISSING_INFORMATION,
    );
  });

  it.each([
    "fullName",
    "age",
    "country",
    "email",
    "timeZone",
    "weeklyAvailability",
    "englishLevel",
  ] as const)("requires %s", (key) => {
    expect(validateApplication({ ...filled, [key]: " " }, NO_FILES)).toEqual(
      MISSING_INFORMATION,
    );
  });

  it("requires an age of at least 14", () => {
    expect(validateApplication({ ...filled, age: "13" }, NO_FILES)).toEqual(
      AGE_REQUIREMENT,
    );
    expect(validateApplication({ ...filled, age: "14" }, NO_FILES)).toBeNull();
  });

  it("requires a role", () => {
    expect(validateApplication({ ...filled, roles: [] }, NO_FILES)).toEqual(
      ROLE_REQUIRED,
    );
  });

  it.each(["graphic-designer", "design-director"])(
    "%s needs a portfolio link or file",
    (role) => {
      const app = { ...filled, roles: [role] };
      expect(validateApplication(app, NO_FILES)).toEqual(PORTFOLIO_REQUIRED);
      expect(
        validateApplication({ ...app, portfolio: "https://ada.art" }, NO_FILES),
      ).toBeNull();
      expect(
        validateApplication(app, withFiles({ portfolio: pdf })),
      ).toBeNull();
    },
  );

  it.each(["editorial-writer", "educational-pack-developer"])(
    "%s needs writing samples as a link or file",
    (role) => {
      const app = { ...filled, roles: [role] };
      expect(validateApplication(app, NO_FILES)).toEqual(
        WRITING_SAMPLES_REQUIRED,
      );
      expect(
        validateApplication(
          { ...app, writingSamples: "https://a.b" },
          NO_FILES,
        ),
      ).toBeNull();
      expect(
        validateApplication(app, withFiles({ writingSamples: pdf })),
      ).toBeNull();
    },
  );

  it("leaves research samples optional", () => {
    expect(
      validateApplication(
        { ...filled, roles: ["research-assistant"] },
        NO_FILES,
      ),
    ).toBeNull();
  });

  it.each(["whyJoin", "contribution"] as const)(
    "requires the answer %s",
    (key) => {
      expect(validateApplication({ ...filled, [key]: "" }, NO_FILES)).toEqual(
        MISSING_ANSWERS,
      );
    },
  );

  it("rejects a malformed email", () => {
    expect(
      validateApplication({ ...filled, email: "ada@school" }, NO_FILES),
    ).toEqual(INVALID_EMAIL);
  });

  it("checks in the spec's order", () => {
    // Every rule is broken; each fix reveals the next one.
    let app: ApplicationFields = {
      ...EMPTY_APPLICATION,
      fullName: "Ada",
      age: "12",
      roles: [],
      email: "bad",
    };
    const steps: [unknown, Partial<ApplicationFields>][] = [
      [
        MISSING_INFORMATION,
        {
          country: "Kenya",
          timeZone: "EAT",
          weeklyAvailability: "2",
          englishLevel: "B2",
        },
      ],
      [AGE_REQUIREMENT, { age: "15" }],
      [ROLE_REQUIRED, { roles: ["design-director", "editorial-writer"] }],
      [PORTFOLIO_REQUIRED, { portfolio: "https://ada.art" }],
      [WRITING_SAMPLES_REQUIRED, { writingSamples: "https://ada.blog" }],
      [MISSING_ANSWERS, { whyJoin: "Why not", contribution: "Words" }],
      [INVALID_EMAIL, { email: "ada@example.org" }],
    ];
    for (const [expected, fix] of steps) {
      expect(validateApplication(app, NO_FILES)).toEqual(expected);
      app = { ...app, ...fix };
    }
    expect(validateApplication(app, NO_FILES)).toBeNull();
  });

  it("refuses a link the server would refuse, after the spec's rules", () => {
    const app = {
      ...filled,
      roles: ["graphic-designer"],
      portfolio: "ada.art",
    };
    expect(validateApplication({ ...app, email: "bad" }, NO_FILES)).toEqual(
      INVALID_EMAIL,
    );
    expect(validateApplication(app, NO_FILES)).toEqual({
      title: "Invalid Link",
      message:
        "Please enter a full link starting with https:// for your portfolio.",
    });
  });

  it("checks the files after the spec's rules", () => {
    const txt = { name: "cv.txt", size: 10 };
    expect(
      validateApplication({ ...filled, email: "bad" }, withFiles({ cv: txt })),
    ).toEqual(INVALID_EMAIL);
    expect(validateApplication(filled, withFiles({ cv: txt }))?.title).toBe(
      "Unsupported File",
    );
  });

  it("ignores a file left in a section that is no longer shown", () => {
    const txt = { name: "old.txt", size: 10 };
    expect(
      validateApplication(filled, withFiles({ portfolio: txt })),
    ).toBeNull();
  });
});

describe("isWebLink", () => {
  it.each(["https://ada.art", "http://a.b/c?d=e", "HTTPS://Ada.Art"])(
    "accepts %s",
    (link) => {
      expect(isWebLink(link)).toBe(true);
    },
  );

  it.each([
    "ada.art",
    "ftp://ada.art",
    "https://ada",
    "https://a b.c",
    "https://",
  ])("rejects %j", (link) => {
    expect(isWebLink(link)).toBe(false);
  });
});

describe("checkDocument", () => {
  it.each(["cv.pdf", "CV.PDF", "cv.doc", "cv.docx"])("accepts %s", (name) => {
    expect(checkDocument("cv", { name, size: 1 })).toBeNull();
  });

  it("refuses other extensions", () => {
    expect(checkDocument("portfolio", { name: "art.png", size: 1 })).toEqual({
      title: "Unsupported File",
      message: "Your portfolio must be a PDF, DOC or DOCX file.",
    });
  });

  it("refuses an empty file", () => {
    expect(checkDocument("cv", { name: "cv.pdf", size: 0 })?.title).toBe(
      "Empty File",
    );
  });

  it("allows 10 MB and refuses more", () => {
    const limit = 10 * 1024 * 1024;
    expect(checkDocument("cv", { name: "cv.pdf", size: limit })).toBeNull();
    expect(
      checkDocument("writingSamples", { name: "w.pdf", size: limit + 1 }),
    ).toEqual({
      title: "File Too Large",
      message:
        "Your writing samples file is larger than 10 MB. Please upload a smaller file.",
    });
  });
});

describe("applicationRequest", () => {
  it("trims the answers and names the parts as the server does", () => {
    const { text, uploads } = applicationRequest(
      { ...filled, fullName: "  Ada Student ", roles: ["copy-editor"] },
      withFiles({ cv: pdf }),
      "",
    );
    expect(text).toMatchObject({
      full_name: "Ada Student",
      age: "16",
      english_level: "C1",
      roles: ["copy-editor"],
      why_join: "To learn.",
      website: "",
    });
    expect(uploads).toEqual({ cv_file: pdf });
  });

  it("sends only the sample sections on show", () => {
    const { text, uploads } = applicationRequest(
      {
        ...filled,
        roles: ["editorial-writer"],
        portfolio: "https://left.behind",
        writingSamples: "https://ada.blog",
      },
      withFiles({ portfolio: pdf, researchSamples: pdf }),
      "",
    );
    expect(text.portfolio).toBe("");
    expect(text.writing_samples).toBe("https://ada.blog");
    expect(uploads).toEqual({});
  });

  it("sends a file instead of its link", () => {
    const { text, uploads } = applicationRequest(
      { ...filled, roles: ["graphic-designer"], portfolio: "https://x.y" },
      withFiles({ portfolio: pdf }),
      "",
    );
    expect(text.portfolio).toBe("");
    expect(uploads).toEqual({ portfolio_file: pdf });
  });
});

describe("submittedMessage", () => {
  it("mentions attached files only when there are some", () => {
    const thanks =
      "Thank you for your interest. We'll review your application and contact you soon.";
    expect(submittedMessage(0)).toBe(thanks);
    expect(submittedMessage(2)).toBe(`${thanks} 2 file(s) were attached.`);
  });
});
