#!/usr/bin/env python3
"""Scores OCR outputs against bench/ocr_screens.py's truth.json (used by bench/ocr.sh).

    ocr_score.py TRUTH_JSON TEXT_DIR [EXTRACT_DIR]

TEXT_DIR holds <stem>.txt per image (tesseract CLI or ocr_bench); EXTRACT_DIR the
<stem>.json the media extractor wrote. Prints one line of counts:
wallet exact/repaired/wrong, amount, time and tx-hash exact reads (the value verbatim in the
text; amounts without their sign, which OCR may read as a dash of another width)."""
import json
import sys
from pathlib import Path

truth = json.loads(Path(sys.argv[1]).read_text())
texts = Path(sys.argv[2])
extracts = Path(sys.argv[3]) if len(sys.argv) > 3 else None
n = len(truth)
c = dict(wallet=0, repaired=0, wrong=0, unread=0, amount=0, time=0, tx=0)
for name, f in truth.items():
    stem = name.rsplit(".", 1)[0]
    text = (texts / f"{stem}.txt").read_text(errors="replace")
    exact = f["wallet"] in text
    c["wallet"] += exact
    c["amount"] += f["amount"].lstrip("-") in text
    c["time"] += f["time"] in text
    c["tx"] += f["tx"] in text
    if extracts:
        found = json.loads((extracts / f"{stem}.json").read_text())["wallets"]
        values = [w["value"] for w in found]
        if not exact and f["wallet"] in values:
            c["repaired"] += 1
        if not exact and f["wallet"] not in values:
            c["unread"] += 1
        c["wrong"] += sum(1 for v in values if v != f["wallet"])
line = (f"wallets exact {c['wallet']}/{n}")
if extracts:
    line += (f", repaired {c['repaired']}/{n} (exact or repaired {c['wallet'] + c['repaired']}/{n}; "
             f"wrong repairs {c['wrong']}; not read {c['unread']})")
line += f"; amounts {c['amount']}/{n}; times {c['time']}/{n}; tx hashes {c['tx']}/{n}"
print(line)
