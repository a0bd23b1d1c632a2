/// <reference types="vitest/config" />
import { defineConfig } from "vite";

// Preact through esbuild's automatic JSX runtime: no Babel preset needed.
// The Tauri shell (src-tauri/tauri.conf.json) loads ui/dist in release and the dev server
// on a fixed port in `tauri dev`.
export default defineConfig({
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  resolve: {
    alias: {
      react: "preact/compat",
      "react-dom": "preact/compat",
    },
  },
  clearScreen: false,
  server: { port: 1420, strictPort: true },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2021",
    sourcemap: false,
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    // A test's verdict is its assertions, never how long it took: a machine busy with a build
    // may run a jsdom view test many times slower than an idle one (vitest's default 5 s limit
    // failed there). The limits only stop a test that hangs. Speed is measured by
    // `npm run bench` (src/**/*.bench.ts), which prints its figures and fails nothing.
    testTimeout: 10 * 60_000,
    hookTimeout: 10 * 60_000,
    teardownTimeout: 10 * 60_000,
  },
});
