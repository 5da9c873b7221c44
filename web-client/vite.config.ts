import { fileURLToPath, URL } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// `npm run dev` proxies the JSON API to a locally running Rust app.
const apiTarget = process.env.AGORA_API_URL ?? "http://127.0.0.1:8080";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: {
    proxy: { "/api": apiTarget, "/media": apiTarget },
  },
  build: {
    // The fallback cover must stay a fingerprinted file, never an inline data URL.
    assetsInlineLimit: 0,
    // The server entry is one file: the sidecar starts by loading it, and resolving and
    // reading a few hundred modules of node_modules took longer than parsing one file.
    // CommonJS, so that the sidecar can compile it with V8's code cache (Node 20 has none
    // for ES modules).
    ...(isSsrBuild && {
      rolldownOptions: {
        output: {
          inlineDynamicImports: true,
          format: "cjs",
          entryFileNames: "[name].cjs",
        },
      },
    }),
  },
  // Its dependencies (react-dom/server, the router, the query cache) bundled in too, their
  // production builds only.
  ...(isSsrBuild && {
    ssr: { noExternal: true },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  }),
  test: {
    environment: "node",
    include: ["src/**/*.test.{ts,tsx}"],
  },
}));
