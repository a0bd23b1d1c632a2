// A small W3C WebDriver client over Node's built-in fetch (no dependencies), enough for the e2e
// suite: sessions, elements by CSS selector, clicks, typing, attributes, scripts, screenshots.

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

export class WebDriverError extends Error {
  constructor(method, path, status, value) {
    super(`${method} ${path}: HTTP ${status}: ${value?.error ?? ""} ${value?.message ?? JSON.stringify(value)}`);
    this.value = value;
  }
}

export class Driver {
  constructor(base) {
    this.base = base.replace(/\/$/, "");
    this.session = null;
  }

  async req(method, path, body) {
    const res = await fetch(this.base + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      throw new WebDriverError(method, path, res.status, { message: text.slice(0, 300) });
    }
    if (!res.ok) throw new WebDriverError(method, path, res.status, json?.value);
    return json?.value;
  }

  s(path) {
    return `/session/${this.session}${path}`;
  }

  async status() {
    return this.req("GET", "/status");
  }

  async start(capabilities) {
    const v = await this.req("POST", "/session", { capabilities: { alwaysMatch: capabilities } });
    this.session = v.sessionId;
    return v;
  }

  async quit() {
    if (!this.session) return;
    try {
      await this.req("DELETE", this.s(""));
    } finally {
      this.session = null;
    }
  }

  async find(css) {
    const v = await this.req("POST", this.s("/element"), { using: "css selector", value: css });
    return v[ELEMENT];
  }

  async findAll(css) {
    const v = await this.req("POST", this.s("/elements"), { using: "css selector", value: css });
    return v.map((e) => e[ELEMENT]);
  }

  /** The element, or null when absent. */
  async maybe(css) {
    const all = await this.findAll(css);
    return all[0] ?? null;
  }

  async click(el) {
    return this.req("POST", this.s(`/element/${el}/click`), {});
  }

  async clear(el) {
    return this.req("POST", this.s(`/element/${el}/clear`), {});
  }

  async type(el, text) {
    return this.req("POST", this.s(`/element/${el}/value`), { text });
  }

  async text(el) {
    return this.req("GET", this.s(`/element/${el}/text`));
  }

  async attr(el, name) {
    return this.req("GET", this.s(`/element/${el}/attribute/${encodeURIComponent(name)}`));
  }

  async prop(el, name) {
    return this.req("GET", this.s(`/element/${el}/property/${encodeURIComponent(name)}`));
  }

  async exec(script, args = []) {
    return this.req("POST", this.s("/execute/sync"), { script, args });
  }

  async execAsync(script, args = []) {
    return this.req("POST", this.s("/execute/async"), { script, args });
  }

  async setTimeouts(t) {
    return this.req("POST", this.s("/timeouts"), t);
  }

  /** PNG bytes of the viewport. */
  async screenshot() {
    const b64 = await this.req("GET", this.s("/screenshot"));
    return Buffer.from(b64, "base64");
  }

  static ref(el) {
    return { [ELEMENT]: el };
  }
}

/**
 * The longest the suite waits for anything before calling it a failure: a ceiling for a hang,
 * never a speed requirement (a machine busy with builds may be many times slower than an idle
 * one; what was fast enough is recorded in perf.json, which fails nothing).
 */
export const PATIENCE_MS = 10 * 60_000;

/** Polls `f` until it returns a truthy value; throws with `what` after `ms`. */
export async function waitFor(what, f, ms = PATIENCE_MS, every = 50) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      const v = await f();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? `: ${last.message}` : ""}`);
    }
    await new Promise((r) => setTimeout(r, every));
  }
}
