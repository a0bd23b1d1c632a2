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
  },
});
