// The app frame in jsdom: the run-ended banner follows the language chosen after it appeared.
// The backend boundary (src/api.ts's api and events) is replaced; errorText is the real one.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RunFinished } from "./api";
import { setLocale } from "./i18n";

const finished: ((f: RunFinished) => void)[] = [];
// the report the app loads when a run ends: by default it never arrives (so the banner stays)
const backend: { report: () => Promise<unknown> } = { report: () => new Promise(() => undefined) };
vi.mock("./api", async (importOriginal) => {
  const real = await importOriginal<typeof import("./api")>();
  const unlisten = () => Promise.resolve(() => undefined);
  return {
    ...real,
    api: {
      caseStatus: () => Promise.reject(new Error("no case")), // no case open
      reportModel: () => backend.report(),
      exportReport: () => Promise.reject({ code: "io", message: "permission denied" }),
    },
    events: {
      onRunEvent: unlisten,
      onRunFinished: (cb: (f: RunFinished) => void) => {
        finished.push(cb);
        return unlisten();
      },
      onIntakeProgress: unlisten,
      onIntakeDropped: unlisten,
    },
  };
});

const { App } = await import("./app");

let root: HTMLDivElement;
beforeEach(() => {
  finished.length = 0;
  backend.report = () => new Promise(() => undefined);
  localStorage.removeItem("masf.locale");
  root = document.createElement("div");
  document.body.appendChild(root);
});
afterEach(() => {
  render(null, root);
  root.remove();
  setLocale("en");
});
const q = (id: string) => root.querySelector(`[data-testid="${id}"]`);
const flush = () => act(async () => { await new Promise((r) => setTimeout(r, 0)); });
const pickLocale = (l: string) =>
  act(() => {
    const sel = q("locale-select") as HTMLSelectElement;
    sel.value = l;
    sel.dispatchEvent(new Event("change", { bubbles: true }));
  });
const end = (f: Partial<RunFinished>) =>
  act(() => {
    for (const cb of finished) cb({ state: "completed", error: null, problems: [], report: null, ...f });
  });

describe("run-ended banner", () => {
  it("is shown in the language chosen now, not the one it appeared in", async () => {
    await act(() => render(<App />, root));
    await flush();
    expect(finished.length).toBeGreaterThan(0);
    await end({ state: "completed" });
    expect(q("app-note")?.textContent).toBe("Run ended: Completed✕");
    await pickLocale("zh-CN");
    expect(q("app-note")?.textContent).toBe("运行结束：已完成✕");
    await pickLocale("en");
    expect(q("app-note")?.textContent).toBe("Run ended: Completed✕");
  });
  it("shows a failed run's error in the language chosen now", async () => {
    await act(() => render(<App />, root));
    await flush();
    await end({ state: "failed", error: { code: "io", message: "disk full" } });
    expect(q("app-note")?.textContent).toBe("File system error: disk full✕");
    await pickLocale("zh-CN");
    expect(q("app-note")?.textContent).toBe("文件系统错误: disk full✕");
  });
  it("shows a report model that fails the checks in the language chosen now", async () => {
    const { asReport } = await import("./api");
    backend.report = () => Promise.resolve().then(() => asReport({ schema: "something/else" }));
    await act(() => render(<App />, root));
    await flush();
    await end({ state: "completed" });
    await flush();
    expect(q("app-note")?.textContent).toBe("The report model is not usable (schema)✕");
    await pickLocale("zh-CN");
    expect(q("app-note")?.textContent).toBe("报告模型不可用（schema）✕");
  });
});

describe("errors in a view", () => {
  it("follow the language chosen after they appeared", async () => {
    await act(() => render(<App />, root));
    await flush();
    await act(() => (q("nav-report") as HTMLButtonElement).click());
    await act(() => {
      const dir = q("export-dir") as HTMLInputElement;
      dir.value = "/tmp/out";
      dir.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(() => (q("export-button") as HTMLButtonElement).click());
    await flush();
    expect(q("export-error")?.textContent).toBe("File system error: permission denied");
    await pickLocale("zh-CN");
    expect(q("export-error")?.textContent).toBe("文件系统错误: permission denied");
  });
});
