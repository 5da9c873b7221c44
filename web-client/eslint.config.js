import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const FEATURES = ["content", "outreach", "identity", "dashboards", "editor"];

// Import direction (bulletproof-react): app -> features -> components/lib.
// Anything outside the current folder is imported through the `@/` alias so
// that the boundaries below can be checked by path.
const parentImport = {
  regex: "^\\.\\./",
  message: "Import from outside this folder through the @/ alias.",
};
// Server renders read their data without an observer: see src/lib/use-query.ts.
const queryHook = {
  name: "@tanstack/react-query",
  importNames: ["useQuery"],
  message: "Import useQuery from @/lib/use-query.",
};
const restrict = (...patterns) => [
  "error",
  { paths: [queryHook], patterns: [parentImport, ...patterns] },
];

export default defineConfig([
  {
    ignores: [
      "dist/**",
      "src/api/schema.d.ts",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { globals: globals.browser },
    rules: { "no-restricted-imports": restrict() },
  },
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**`],
    rules: {
      "no-restricted-imports": restrict(
        {
          regex: `^@/features/(?!${feature}/)`,
          message:
            "Features must not import each other; compose them in src/app.",
        },
        { regex: "^@/app/", message: "Features must not import from src/app." },
      ),
    },
  })),
  {
    files: ["src/components/**", "src/lib/**"],
    rules: {
      "no-restricted-imports": restrict({
        regex: "^@/(app|features)/",
        message: "Shared code must not depend on app or feature code.",
      }),
    },
  },
  {
    // The hook itself, its test, and the test of hydration, which renders as
    // the browser does.
    files: [
      "src/lib/use-query.ts",
      "src/lib/use-query.test.tsx",
      "src/app/hydration.test.tsx",
    ],
    rules: {
      "no-restricted-imports": ["error", { patterns: [parentImport] }],
    },
  },
  {
    files: ["*.{js,ts}", "scripts/**", "e2e/**"],
    languageOptions: { globals: globals.node },
  },
]);
