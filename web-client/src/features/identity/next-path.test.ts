import { describe, expect, it } from "vitest";
import { nextDownload } from "./next-path";

describe("nextDownload", () => {
  it("takes a staff download on this site, query and all", () => {
    const path =
      "/api/v1/staff/applications/a1/documents/cv?expires=1&signature=ab";
    expect(nextDownload(`?next=${encodeURIComponent(path)}`)).toBe(path);
  });

  it("ignores other sites, other paths and nothing", () => {
    for (const next of [
      "https://evil.example/api/v1/staff/x",
      "//evil.example/api/v1/staff/x",
      "/dashboard/admin",
      "javascript:alert(1)",
    ]) {
      expect(nextDownload(`?next=${encodeURIComponent(next)}`)).toBeNull();
    }
    expect(nextDownload("")).toBeNull();
  });
});
