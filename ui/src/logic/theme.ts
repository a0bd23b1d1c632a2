// Light / dark: follow the system unless the examiner chose one.
export type ThemeChoice = "system" | "light" | "dark";

export function resolveTheme(choice: ThemeChoice, systemDark: boolean): "light" | "dark" {
  return choice === "system" ? (systemDark ? "dark" : "light") : choice;
}

export function nextTheme(c: ThemeChoice): ThemeChoice {
  return c === "system" ? "light" : c === "light" ? "dark" : "system";
}
