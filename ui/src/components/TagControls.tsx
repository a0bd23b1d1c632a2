// The examiner's tag, bookmark and note controls for one item (a phenomenon, timeline entry,
// actor …, named by its target text). Every change is one command to Rust, which records it as
// an examiner event and answers with the marks after it; a refusal is shown as it came.
import { useState } from "preact/hooks";
import { errorText, type Failure } from "../api";
import type { MarkAct, TagsView } from "../generated/ipc";
import { t } from "../i18n";
import { bookmarkAct, tagChoices, tagIndex } from "../logic/tags";

export interface Marker {
  mark: (target: string, act: MarkAct) => Promise<void>;
  withdraw: (noteId: string) => Promise<void>;
}

export function TagControls({ target, tags, marker }: { target: string; tags: TagsView; marker: Marker }) {
  const row = tagIndex(tags).get(target);
  const [tag, setTag] = useState("");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<Failure | null>(null);
  const run = async (f: () => Promise<void>) => {
    setBusy(true);
    try {
      await f();
      setErr(null);
    } catch (error) {
      setErr({ error });
    } finally {
      setBusy(false);
    }
  };
  const id = target.replace(/[^A-Za-z0-9_-]/g, "_");
  return (
    <div class="tag-controls" data-testid={`tags-${id}`}>
      {(row?.tags ?? []).map((x) => (
        <span class="chip tag" title={`${x.by} · ${x.at}${x.reason ? ` · ${x.reason}` : ""}`} data-testid={`tag-${id}-${x.tag}`}>
          {x.tag}
          <button
            type="button"
            class="icon"
            disabled={busy}
            aria-label={t("tags.remove", { tag: x.tag })}
            onClick={() => void run(() => marker.mark(target, { act: "untag", tag: x.tag }))}
          >
            ×
          </button>
        </span>
      ))}
      <input
        list={`tag-choices-${id}`}
        value={tag}
        placeholder={t("tags.add")}
        aria-label={t("tags.add")}
        data-testid={`tag-input-${id}`}
        onInput={(e) => setTag(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && tag.trim()) void run(async () => { await marker.mark(target, { act: "tag", tag }); setTag(""); });
        }}
      />
      <datalist id={`tag-choices-${id}`}>
        {tagChoices(tags, row).map((o) => (
          <option value={o} />
        ))}
      </datalist>
      <button
        type="button"
        disabled={busy || !tag.trim()}
        data-testid={`tag-add-${id}`}
        onClick={() => void run(async () => { await marker.mark(target, { act: "tag", tag }); setTag(""); })}
      >
        {t("tags.tag")}
      </button>
      <button
        type="button"
        class="icon"
        disabled={busy}
        aria-pressed={!!row?.bookmark}
        aria-label={row?.bookmark ? t("tags.unbookmark") : t("tags.bookmark")}
        title={row?.bookmark ? `${row.bookmark.by} · ${row.bookmark.at}` : t("tags.bookmark")}
        data-testid={`bookmark-${id}`}
        onClick={() => void run(() => marker.mark(target, bookmarkAct(row)))}
      >
        {row?.bookmark ? "★" : "☆"}
      </button>
      <details class="notes">
        <summary>{t("tags.notes", { n: row?.notes.length ?? 0 })}</summary>
        <ul>
          {(row?.notes ?? []).map((n) => (
            <li data-testid={`note-${n.id}`}>
              {n.text} <span class="muted small">{`${n.by} · ${n.at}`}</span>
              <button type="button" class="icon" disabled={busy} aria-label={t("tags.withdraw")} onClick={() => void run(() => marker.withdraw(n.id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
        <input value={note} placeholder={t("tags.note")} aria-label={t("tags.note")} data-testid={`note-input-${id}`} onInput={(e) => setNote(e.currentTarget.value)} />
        <button
          type="button"
          disabled={busy || !note.trim()}
          data-testid={`note-add-${id}`}
          onClick={() => void run(async () => { await marker.mark(target, { act: "note", text: note }); setNote(""); })}
        >
          {t("tags.write")}
        </button>
      </details>
      {err && (
        <span class="error small" role="alert" data-testid={`tag-error-${id}`}>
          {errorText(err.error)}
        </span>
      )}
    </div>
  );
}

/** A select of the tags in use ("" = all), for a view's toolbar. */
export function TagFilter({ value, tags, onChange }: { value: string; tags: string[]; onChange: (tag: string) => void }) {
  return (
    <label class="field">
      <span>{t("tags.filter")}</span>
      <select value={value} data-testid="tag-filter" onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{t("common.all")}</option>
        {tags.map((x) => (
          <option value={x}>{x}</option>
        ))}
      </select>
    </label>
  );
}
