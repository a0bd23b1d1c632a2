import { describe, expect, it } from "vitest";
import { demoReport, fixtureText } from "../test/fixture";
import { firstHit, highlight } from "./highlight";

const join = (h: ReturnType<typeof highlight>) => h.spans.map((s) => s.text).join("");

describe("highlight spans", () => {
  it("marks the real demo fact in its real invocation output (verbatim)", () => {
    const r = demoReport();
    const ph = r.phenomena.find((p) => p.id === "ph-000006");
    const fact = ph?.verified_facts[0];
    expect(fact?.invocation_id).toBe("inv-000005");
    const out = fixtureText("inv-000005.out");
    const h = highlight(out, fact?.value ?? "", fact?.normalisation);
    expect(h.how).toBe("verbatim");
    expect(h.hits).toBe(1);
    expect(join(h)).toBe(out); // nothing lost or added
    const hit = h.spans[firstHit(h.spans)];
    expect(hit?.text).toBe("Chan.MH@example.net");
  });
  it("marks every occurrence and keeps the text intact", () => {
    const h = highlight("a foo b foo c", "foo");
    expect(h.hits).toBe(2);
    expect(h.spans.map((s) => [s.text, s.hit])).toEqual([
      ["a ", false], ["foo", true], [" b ", false], ["foo", true], [" c", false],
    ]);
  });
  it("falls back to case-insensitive for e-mail / hex normalisations", () => {
    const h = highlight("owner: CHAN.MH@Example.NET", "chan.mh@example.net", "email_case");
    expect(h.how).toBe("case");
    expect(h.spans.find((s) => s.hit)?.text).toBe("CHAN.MH@Example.NET");
  });
  it("finds phone numbers across separators and without the country code", () => {
    const a = highlight("tel +852 9876-5432 home", "+85298765432", "phone_e164");
    expect(a.spans.find((s) => s.hit)?.text).toBe("+852 9876-5432".slice(1));
    const b = highlight("mobile: 9876 5432;", "+85298765432", "phone_e164");
    expect(b.hits).toBe(1);
    expect(b.spans.find((s) => s.hit)?.text).toBe("9876 5432");
    // does not match inside a longer digit run
    expect(highlight("id 1987654321", "98-765432", "digit_separators").hits).toBe(0);
  });
  it("collapses white space when the fact says so", () => {
    const h = highlight("name:  Man\tHo   CHAN\n", "Man Ho CHAN", "whitespace_collapse");
    expect(h.how).toBe("whitespace");
    expect(h.spans.find((s) => s.hit)?.text).toBe("Man\tHo   CHAN");
  });
  it("handles Chinese text and regex metacharacters as plain text", () => {
    const h = highlight("联系人：陈文浩 (a+b)*[c]", "陈文浩");
    expect(h.spans.find((s) => s.hit)?.text).toBe("陈文浩");
    expect(highlight("x (a+b)*[c] y", "(a+b)*[c]").hits).toBe(1);
  });
  it("repairs OCR look-alikes for wallets", () => {
    const h = highlight("addr 0x185OceOe73 end", "0x1850ce0e73", "look_alike_repair");
    expect(h.hits).toBe(1);
    expect(h.how).toBe("look_alike");
  });
  it("reports no hit without inventing one", () => {
    const h = highlight("nothing here", "absent");
    expect(h.hits).toBe(0);
    expect(h.how).toBe("none");
    expect(firstHit(h.spans)).toBe(-1);
    expect(join(h)).toBe("nothing here");
  });
});
