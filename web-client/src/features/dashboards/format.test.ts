import { describe, expect, it } from "vitest";
import { dayLabel, formatMegabytes, looksLikePdf } from "./format";

describe("dayLabel", () => {
  it("names the calendar day as given, whatever the runner's zone", () => {
    expect(dayLabel("2026-11-03")).toBe("Nov 3");
    expect(dayLabel("2026-01-01")).toBe("Jan 1");
    expect(dayLabel("2026-12-31")).toBe("Dec 31");
  });

  it("leaves anything that is not a date alone", () => {
    expect(dayLabel("yesterday")).toBe("yesterday");
  });
});

describe("formatMegabytes", () => {
  it("shows one decimal", () => {
    expect(formatMegabytes(2_516_582)).toBe("2.4 MB");
    expect(formatMegabytes(0)).toBe("0.0 MB");
  });
});

describe("looksLikePdf", () => {
  it("accepts a .pdf name or a PDF type", () => {
    expect(looksLikePdf("Issue 1.PDF", "")).toBe(true);
    expect(looksLikePdf("issue", "application/pdf")).toBe(true);
  });

  it("refuses other files", () => {
    expect(looksLikePdf("cover.png", "image/png")).toBe(false);
    expect(looksLikePdf("issue.pdf.exe", "")).toBe(false);
  });
});
