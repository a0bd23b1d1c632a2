// Loads the real demo report (see fixtures/FIXTURES.md) for tests.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Report } from "../model/report";

export function fixturePath(name: string): string {
  // vitest runs from ui/ (npm test)
  return resolve(process.cwd(), "src/test/fixtures", name);
}

export function demoReport(): Report {
  return JSON.parse(readFileSync(fixturePath("demo-report.json"), "utf8")) as Report;
}

export function fixtureText(name: string): string {
  return readFileSync(fixturePath(name), "utf8");
}
