import { describe, expect, it } from "vitest";
import { bytes, draftProblems, validZone } from "./intake";

const meta = { dir: "/cases/x", id: "case-1", title: "T", examiner: "J. Doe", timezone: "Asia/Hong_Kong" };
const row = (id: string, extra: Partial<{ timezone: string; error: { code: string; message: string } }> = {}) => ({
  draft: { path: `/e/${id}`, size: 1, error: extra.error ?? null },
  id,
  label: id,
  timezone: extra.timezone ?? "",
});

describe("intake form", () => {
  it("accepts a complete case", () => {
    expect(draftProblems(meta, [row("src-a"), row("src-b", { timezone: "UTC" })])).toEqual([]);
  });
  it("names every problem", () => {
    const keys = draftProblems({ ...meta, dir: " ", id: "bad id", examiner: "", timezone: "Mars/Base" }, [
      row("dup"), row("dup"), row("x", { timezone: "Nope/Zone", error: { code: "io", message: "unreadable" } }),
    ]).map((p) => p.key);
    expect(keys).toEqual([
      "intake.p.dir", "intake.p.caseId", "intake.p.examiner", "intake.p.zone",
      "intake.p.dupId", "intake.p.unreadable", "intake.p.zone",
    ]);
    expect(draftProblems(meta, []).map((p) => p.key)).toEqual(["intake.p.noSources"]);
  });
  it("takes a phone region per case and per source, two letters or none", () => {
    expect(draftProblems({ ...meta, region: "HK" }, [{ ...row("src-a"), region: "gb" }, { ...row("src-b"), region: "" }])).toEqual([]);
    const problems = draftProblems({ ...meta, region: "HKG" }, [{ ...row("src-a"), region: "+852" }]);
    expect(problems.map((p) => p.key)).toEqual(["intake.p.region", "intake.p.region"]);
    expect(problems[1]?.params).toEqual({ region: "+852" });
  });
  it("takes a backup password's variable name, never echoes what was typed", () => {
    expect(draftProblems(meta, [{ ...row("src-a"), passwordEnv: "IPHONE_BACKUP_PW" }, { ...row("src-b"), passwordEnv: "" }])).toEqual([]);
    const problems = draftProblems(meta, [{ ...row("src-a"), passwordEnv: "s3cret pass!" }]);
    expect(problems).toEqual([{ key: "intake.p.passwordEnv", params: { id: "src-a" } }]);
    expect(JSON.stringify(problems)).not.toContain("s3cret");
  });
  it("checks IANA zones and formats sizes", () => {
    expect(validZone("Asia/Shanghai")).toBe(true);
    expect(validZone("Asia/Nowhere")).toBe(false);
    expect(bytes(512)).toBe("512 B");
    expect(bytes(1286022)).toBe("1.23 MiB");
    expect(bytes(41943040)).toBe("40.0 MiB");
  });
});
