import { describe, expect, it } from "vitest";
import { coverSrcSet } from "./cover-sources";

describe("coverSrcSet", () => {
  it("offers an uploaded cover's width copies", () => {
    expect(coverSrcSet("/media/covers/01HX-a_b.jpg")).toBe(
      "/media/covers/01HX-a_b.w400.webp 400w, /media/covers/01HX-a_b.w800.webp 800w, /media/covers/01HX-a_b.w1200.webp 1200w",
    );
    expect(coverSrcSet("/media/covers/x.png")).toContain("x.w800.webp 800w");
  });

  it("leaves every other picture as it is", () => {
    for (const src of [
      null,
      undefined,
      "",
      "/media/covers/demo.svg",
      "https://example.org/media/covers/x.jpg",
      "/media/covers/a/b.jpg",
      "/media/magazines/x.jpg",
    ]) {
      expect(coverSrcSet(src)).toBeNull();
    }
  });
});
