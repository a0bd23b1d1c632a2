import { describe, expect, it } from "vitest";
import { bytes, caseDraftOf } from "./intake";

const meta = { dir: " /cases/x ", id: " case-1 ", title: "T", examiner: "J. Doe", timezone: "Asia/Hong_Kong", region: "", persons: "leung: LEUNG: YL\n\n chan \n" };
const row = (id: string, extra: Partial<{ owner: string; region: string; passwordEnv: string }> = {}) => ({
  draft: { path: `/e/${id}`, size: 1, error: null },
  id: ` ${id} `,
  label: id,
  owner: extra.owner ?? "",
  timezone: "",
  region: extra.region ?? "",
  passwordEnv: extra.passwordEnv ?? "",
});

describe("intake form", () => {
  it("turns the editor's fields into the draft Rust checks and saves, blanks as none", () => {
    const d = caseDraftOf(meta, [row("src-a", { owner: "leung", region: "gb" }), row("src-b", { passwordEnv: " PW " })]);
    expect(d.dir).toBe("/cases/x");
    expect(d.id).toBe("case-1");
    expect(d.region).toBeNull();
    expect(d.persons).toEqual([
      { id: "leung", name: "LEUNG: YL", aliases: [] },
      { id: "chan", name: "chan", aliases: [] },
    ]);
    expect(d.sources.map((s) => [s.id, s.owner, s.region, s.password_env, s.timezone])).toEqual([
      ["src-a", "leung", "gb", null, null],
      ["src-b", null, null, "PW", null],
    ]);
    expect(d.overwrite).toBe(false);
  });
  it("formats sizes", () => {
    expect(bytes(512)).toBe("512 B");
    expect(bytes(1286022)).toBe("1.23 MiB");
    expect(bytes(41943040)).toBe("40.0 MiB");
  });
});
