// The tag controls in jsdom: each control asks the marker for one act, shows what is on the
// item, and shows a refusal as Rust gave it.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import type { MarkAct, TagsView } from "../generated/ipc";
import { TagControls, type Marker } from "./TagControls";

const at = { by: "J. Doe", at: "2025-03-01T10:00:00Z", reason: "" };
const tags: TagsView = {
  offered: ["Notable", "Suspicious", "Follow up", "Exculpatory"],
  items: [
    {
      target: "ph-000001",
      kind: "phenomenon",
      what: "x",
      present: true,
      tags: [{ tag: "Suspicious", ...at }],
      bookmark: null,
      notes: [{ id: "note-000001", text: "<img src=x onerror=alert(1)>", by: "J. Doe", at: at.at }],
    },
  ],
};

let root: HTMLElement;
afterEach(() => {
  render(null, root);
  root.remove();
});

async function mount(marker: Marker, target = "ph-000001") {
  root = document.createElement("div");
  document.body.append(root);
  await act(() => render(<TagControls target={target} tags={tags} marker={marker} />, root));
}

function recording(fail?: string): { marker: Marker; acts: [string, MarkAct | string][] } {
  const acts: [string, MarkAct | string][] = [];
  return {
    acts,
    marker: {
      mark: (target, a) => {
        acts.push([target, a]);
        return fail ? Promise.reject({ code: "bad_request", message: fail }) : Promise.resolve();
      },
      withdraw: (id) => {
        acts.push(["withdraw", id]);
        return Promise.resolve();
      },
    },
  };
}

const click = async (el: Element | null) => {
  await act(async () => {
    (el as HTMLElement).click();
  });
};

describe("TagControls", () => {
  it("shows what is on the item, notes as text", async () => {
    await mount(recording().marker);
    expect(root.querySelector('[data-testid="tag-ph-000001-Suspicious"]')?.textContent).toContain("Suspicious");
    expect(root.querySelector('[data-testid="note-note-000001"]')?.textContent).toContain("<img src=x onerror=alert(1)>");
    expect(root.querySelector("img")).toBeNull();
    expect(root.querySelector('[data-testid="bookmark-ph-000001"]')?.getAttribute("aria-pressed")).toBe("false");
  });

  it("asks for one act per control", async () => {
    const r = recording();
    await mount(r.marker);
    await click(root.querySelector('[data-testid="tag-ph-000001-Suspicious"] button'));
    await click(root.querySelector('[data-testid="bookmark-ph-000001"]'));
    const input = root.querySelector('[data-testid="tag-input-ph-000001"]') as HTMLInputElement;
    await act(async () => {
      input.value = "Follow up";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await click(root.querySelector('[data-testid="tag-add-ph-000001"]'));
    await click(root.querySelector('[data-testid="note-note-000001"] button'));
    expect(r.acts).toEqual([
      ["ph-000001", { act: "untag", tag: "Suspicious" }],
      ["ph-000001", { act: "bookmark" }],
      ["ph-000001", { act: "tag", tag: "Follow up" }],
      ["withdraw", "note-000001"],
    ]);
  });

  it("shows a refusal as it came", async () => {
    const r = recording("cannot mark ph-000009: no phenomenon has the id");
    await mount(r.marker, "ph-000009");
    await click(root.querySelector('[data-testid="bookmark-ph-000009"]'));
    expect(root.querySelector('[data-testid="tag-error-ph-000009"]')?.textContent).toContain("no phenomenon has the id");
  });
});
