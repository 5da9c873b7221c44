import { describe, expect, it } from "vitest";
import {
  dashboardLabel,
  dashboardPath,
  isStaffRole,
  STAFF_ROLES,
} from "./staff-roles";

describe("dashboardPath", () => {
  it("sends each role to its own dashboard", () => {
    expect(dashboardPath("admin")).toBe("/dashboard/admin");
    expect(dashboardPath("writer")).toBe("/dashboard/writer");
    expect(dashboardPath("educator")).toBe("/dashboard/educator");
    expect(dashboardPath("content-director")).toBe(
      "/dashboard/content-director",
    );
  });

  it("sends an unknown role home", () => {
    expect(dashboardPath("editor")).toBe("/");
    expect(dashboardPath("")).toBe("/");
    expect(dashboardPath("toString")).toBe("/");
  });
});

describe("dashboardLabel", () => {
  it("says My Notebook to writers and the content director", () => {
    expect(dashboardLabel("writer")).toBe("My Notebook");
    expect(dashboardLabel("content-director")).toBe("My Notebook");
  });

  it("says Dashboard to everyone else", () => {
    expect(dashboardLabel("admin")).toBe("Dashboard");
    expect(dashboardLabel("educator")).toBe("Dashboard");
    expect(dashboardLabel("someone-new")).toBe("Dashboard");
  });
});

it("knows the four roles of the contract and nothing else", () => {
  expect([...STAFF_ROLES].sort()).toEqual([
    "admin",
    "content-director",
    "educator",
    "writer",
  ]);
  expect(isStaffRole("constructor")).toBe(false);
  expect(isStaffRole(42)).toBe(false);
});
