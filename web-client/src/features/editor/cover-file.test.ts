import { expect, it } from "vitest";
import {
  coverFileProblem,
  MAX_COVER_BYTES,
  NOT_AN_IMAGE,
  TOO_LARGE,
} from "./cover-file";

it("accepts images up to 5 MB", () => {
  expect(coverFileProblem({ type: "image/png", size: 10 })).toBeNull();
  expect(
    coverFileProblem({ type: "image/jpeg", size: MAX_COVER_BYTES }),
  ).toBeNull();
});

it("rejects other types first, then larger images", () => {
  expect(coverFileProblem({ type: "application/pdf", size: 10 })).toBe(
    NOT_AN_IMAGE,
  );
  expect(coverFileProblem({ type: "", size: MAX_COVER_BYTES + 1 })).toBe(
    NOT_AN_IMAGE,
  );
  expect(
    coverFileProblem({ type: "image/png", size: MAX_COVER_BYTES + 1 }),
  ).toBe(TOO_LARGE);
});
