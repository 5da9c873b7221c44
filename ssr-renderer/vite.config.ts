import { defineConfig } from "vite";

// The sidecar as one file, its dependencies (Express, Beasties) bundled in: at start-up, Node
// resolved and read a few hundred files of node_modules, longer than it takes to parse one.
// `tsc` checks the types; this writes dist/. The OpenTelemetry SDK, imported only when an
// exporter is configured, stays a chunk of its own.
export default defineConfig({
  build: {
    ssr: "src/server.ts",
    outDir: "dist",
    target: "node20",
    sourcemap: true,
    rolldownOptions: { output: { entryFileNames: "server.js" } },
  },
  ssr: { noExternal: true, target: "node" },
});
