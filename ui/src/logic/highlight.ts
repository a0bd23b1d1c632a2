// Where a verified fact's value sits in its invocation's output, so the UI can mark it.
// Mirrors the grounding gateway's match methods (crates/graph MatchMethod / Normalisation):
// verbatim first, then the normalisation the fact records, then the generic fallbacks.
// The result is plain text spans; the view renders them as text nodes (never as HTML).

export interface Span {
  text: string;
  hit: boolean;
}

export interface Highlight {
  spans: Span[];
  hits: number;
  /** How the value was found: "verbatim", "case", "whitespace", "digits", "look_alike", or "none". */
  how: string;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function splitByRe(text: string, re: RegExp): { spans: Span[]; hits: number } {
  const spans: Span[] = [];
  let last = 0;
  let hits = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex += 1;
      continue;
    }
    if (m.index > last) spans.push({ text: text.slice(last, m.index), hit: false });
    spans.push({ text: m[0], hit: true });
    hits += 1;
    last = m.index + m[0].length;
  }
  if (last < text.length) spans.push({ text: text.slice(last), hit: false });
  return { spans, hits };
}

function digitsPattern(digits: string): string {
  // digits may be separated by spaces, dashes, dots, slashes or parentheses in the output
  return digits.split("").map(escapeRe).join("[\\s\\-./()]*");
}

const LOOK_ALIKE: Record<string, string> = {
  o: "[oO0]", O: "[oO0]", "0": "[oO0]",
  l: "[lI1]", I: "[lI1]", "1": "[lI1]", i: "[iIl1]",
};

function candidates(value: string, normalisation: string | null | undefined): [string, RegExp][] {
  const out: [string, RegExp][] = [];
  const v = value;
  out.push(["verbatim", new RegExp(escapeRe(v), "g")]);
  const ci: [string, RegExp] = ["case", new RegExp(escapeRe(v), "gi")];
  const trimmed = v.trim();
  const ws: [string, RegExp] | null = /\s/.test(trimmed)
    ? ["whitespace", new RegExp(trimmed.split(/\s+/).map(escapeRe).join("\\s+"), "g")]
    : null;
  const digits = v.replace(/\D/g, "");
  const dg: [string, RegExp][] = [];
  if (digits.length >= 4) {
    dg.push(["digits", new RegExp(`(?<!\\d)${digitsPattern(digits)}(?!\\d)`, "g")]);
    // an E.164 value (+852…) may appear in the output without its country code
    if (v.trim().startsWith("+")) {
      for (let cut = 1; cut <= 3 && digits.length - cut >= 7; cut++) {
        dg.push(["digits", new RegExp(`(?<!\\d)${digitsPattern(digits.slice(cut))}(?!\\d)`, "g")]);
      }
    }
  }
  const la: [string, RegExp] = [
    "look_alike",
    new RegExp(
      trimmed
        .replace(/\s+/g, "")
        .split("")
        .map((c) => (LOOK_ALIKE[c] ?? escapeRe(c)) + "\\s?")
        .join(""),
      "gi",
    ),
  ];
  switch (normalisation ?? "") {
    case "whitespace_collapse":
      if (ws) out.push(ws);
      break;
    case "hex_case":
    case "email_case":
      out.push(ci);
      break;
    case "phone_e164":
    case "digit_separators":
      out.push(...dg);
      break;
    case "look_alike_repair":
      out.push(la);
      break;
    default:
      break;
  }
  out.push(ci);
  if (ws) out.push(ws);
  if (/^[+\d\s\-./()]+$/.test(trimmed)) out.push(...dg);
  return out;
}

/** Splits `text` into spans, marking every occurrence of the fact's value. */
export function highlight(text: string, value: string, normalisation?: string | null): Highlight {
  if (value.length === 0 || text.length === 0) {
    return { spans: text ? [{ text, hit: false }] : [], hits: 0, how: "none" };
  }
  for (const [how, re] of candidates(value, normalisation)) {
    const r = splitByRe(text, re);
    if (r.hits > 0) return { spans: r.spans, hits: r.hits, how };
  }
  return { spans: [{ text, hit: false }], hits: 0, how: "none" };
}

/** Index (in spans) of the first hit, for scrolling it into view. */
export function firstHit(spans: Span[]): number {
  return spans.findIndex((s) => s.hit);
}
