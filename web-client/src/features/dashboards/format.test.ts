import { describe, expect, it } from "vitest";
import { dayLabel, formatFileSize, looksLikePdf } from "./format";

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

describe("formatFileSize", () => {
  it("shows megabytes with one decimal", () => {
    expect(formatFileSize(2_516_582)).toBe("2.4 MB");
    expect(formatFileSize(1024 * 1024)).toBe("1.0 MB");
  });

  it("shows kilobytes below a megabyte, never 0", () => {
    expect(formatFileSize(317_440)).toBe("310 KB");
    expect(formatFileSize(120)).toBe("1 KB");
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
