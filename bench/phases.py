#!/usr/bin/env python3
"""Where a `masf run` spent its time (used by bench/run.sh): phases from the timestamps of the
event log (`masf events --jsonl`, read on stdin) and tool time from the invocation log of the
case store (read-only), both against the process start and end measured by the caller.

    masf events CASE --work W --jsonl | phases.py STORE_SQLITE START_EPOCH END_EPOCH
"""
import json, re, sqlite3, sys
from datetime import datetime, timezone

def epoch(ts):
    m = re.match(r"(.*T\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$", ts)
    base = datetime.fromisoformat(m.group(1) + (m.group(3).replace("Z", "+00:00")))
    return base.timestamp() + (float("0" + m.group(2)) if m.group(2) else 0.0)

store, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
events = [json.loads(l) for l in sys.stdin if l.strip()]
for e in events:
    e["t"] = epoch(e["ts"]) - start

def first(pred):
    return next((e["t"] for e in events if pred(e)), None)

def last(pred):
    return next((e["t"] for e in reversed(events) if pred(e)), None)

# Phase boundaries: intake = process start until the run segment starts (RunState active);
# triage = until the last event written by a triage task; planners+strategist = until the
# RunState that closes the segment; report = from then until the process exits.
active = first(lambda e: e["kind"] == "RunState" and e["payload"].get("state") == "active")
closed = last(lambda e: e["kind"] == "RunState" and e["payload"].get("state") != "active")
round1 = first(lambda e: e["kind"] == "RoundStarted")
wall = end - start
print(f"  events: {len(events)}, process wall {wall:.1f} s")
rows = [("intake (start -> RunState active)", 0.0, active),
        ("triage + planners (-> first RoundStarted)", active, round1),
        ("strategist rounds (-> RunState closed)", round1 or active, closed),
        ("report (RunState closed -> exit)", closed, wall)]
for name, a, b in rows:
    if a is not None and b is not None:
        print(f"  {name:<44} {b - a:8.1f} s   [{a:7.1f} .. {b:7.1f}]")
triage_end = last(lambda e: str(e.get("actor_id") or "").endswith("-triage")
                  and (round1 is None or e["t"] <= round1))
if triage_end is not None:
    print(f"  (last triage event before the rounds at {triage_end:.1f} s)")

# Event counts by kind, and the span of each agent's events.
kinds = {}
for e in events:
    kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
print("  events by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])))
spans = {}
for e in events:
    a = e.get("actor_id") or "-"
    s = spans.setdefault(a, [e["t"], e["t"], 0])
    s[1] = e["t"]
    s[2] += 1
print("  events by actor (first .. last, s since start):")
for a, (f, l, n) in sorted(spans.items(), key=lambda kv: kv[1][0]):
    print(f"    {a:<28} {n:7d} events  {f:7.1f} .. {l:7.1f}")

# Tool time from the invocation log: calls, summed and longest duration per agent and tool.
import os
if not os.path.exists(store):
    sys.exit(0)
db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
print("  tool calls by agent/tool (count, total s, max s, output MiB):")
for agent, tool, n, tot, mx, size in db.execute(
        "SELECT agent, tool, COUNT(*), SUM(duration_ms) / 1000.0, MAX(duration_ms) / 1000.0, "
        "SUM(output_size) / 1048576.0 FROM invocations GROUP BY agent, tool "
        "ORDER BY SUM(duration_ms) DESC LIMIT 15"):
    print(f"    {agent:<24} {tool:<16} {n:6d} {tot:8.2f} {mx:8.2f} {size:8.1f}")
