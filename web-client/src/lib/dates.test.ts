import { describe, expect, it } from "vitest";
import { formatLongDateTime, formatShortDate } from "./dates";

describe("formatShortDate", () => {
  it("formats a US short date in UTC by default", () => {
    expect(formatShortDate("2026-11-22T03:06:00Z")).toBe("Nov 22, 2026");
  });

  it("uses the given time zone", () => {
    expect(formatShortDate("2026-11-22T03:06:00Z", "America/Los_Angeles")).toBe(
      "Nov 21, 2026",
    );
  });

  it("returns an empty string for an invalid date", () => {
    expect(formatShortDate("not a date")).toBe("");
  });
});

describe("formatLongDateTime", () => {
  it("formats long date, 2-digit time and zone name in UTC", () => {
    expect(formatLongDateTime("2026-11-22T03:06:00Z")).toBe(
      "November 22, 2026 at 03:06 AM UTC",
    );
  });

  it("formats afternoon times with PM", () => {
    expect(formatLongDateTime("2026-07-04T15:30:00+00:00")).toBe(
      "July 4, 2026 at 03:30 PM UTC",
    );
  });

  it("uses the given zone and its short name", () => {
    expect(formatLongDateTime("2026-11-22T03:06:00Z", "America/New_York")).toBe(
      "November 21, 2026 at 10:06 PM EST",
    );
  });
});
