import { describe, expect, it } from "vitest";
import { preloadPage } from "./routes";

describe("preloadPage", () => {
  it("loads nothing for the pages in the main bundle", () => {
    for (const path of ["/", "/articles", "/article/veto", "/x"]) {
      expect(preloadPage(path), path).toBeNull();
    }
  });

  it("loads the chunk of an outreach page, matched as wouter matches it", async () => {
    for (const path of [
      // Staff sign-in is out of the main bundle too, with the forms' code.
      "/key-login",
      "/about",
      "/About",
      "/contact-us/",
      "/application/success",
    ]) {
      const loading = preloadPage(path);
      expect(loading, path).not.toBeNull();
      await expect(loading).resolves.toBeUndefined();
    }
  });
});
