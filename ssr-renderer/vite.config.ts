import { defineConfig } from "vite";

// The sidecar as one file, its dependencies (Express) bundled in: at start-up, Node resolved
// and read a few hundred files of node_modules, longer than it takes to parse one. `tsc`
// checks the types; this writes dist/: server.js, and precompute.js, which the build runs
// once (critical CSS per kind of page). What only some runs need is a chunk of its own,
// loaded when it is: the OpenTelemetry SDK (with an exporter configured) and Beasties (for a
// page unlike the build's samples). Every file sits in dist/ itself, as each finds the web
// client's build from where it is.
export default defineConfig({
  build: {
    ssr: true,
    outDir: "dist",
    target: "node20",
    sourcemap: true,
    rolldownOptions: {
      input: { server: "src/server.ts", precompute: "src/precompute.ts" },
      output: {
        entryFileNames: "[name].js",
        chunkFileNames: "[name]-[hash].js",
      },
    },
  },
  ssr: { noExternal: true, target: "node" },
});
