// Output text with the fact's value marked. Spans are text nodes and <mark>s: never HTML.
import { useEffect, useRef } from "preact/hooks";
import type { Span } from "../logic/highlight";

export function Highlighted({ spans, testid }: { spans: Span[]; testid?: string }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const m = ref.current?.querySelector("mark");
    if (m && typeof m.scrollIntoView === "function") m.scrollIntoView({ block: "center" });
  }, [spans]);
  return (
    <pre class="output" ref={ref} data-testid={testid} tabIndex={0}>
      {spans.map((s, i) =>
        s.hit ? (
          <mark key={i} data-testid="output-highlight">
            {s.text}
          </mark>
        ) : (
          s.text
        ),
      )}
    </pre>
  );
}
