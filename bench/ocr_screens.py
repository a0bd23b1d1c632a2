#!/usr/bin/env python3
"""Synthetic phone screenshots of crypto transfers for the OCR benchmark (bench/ocr.sh) and the
media tests: ImageMagick renders each screen; the ground truth (wallet, amount, time, tx hash
per image) is written next to them. Standard library only; the same inputs give the same bytes.

    ocr_screens.py OUT [COUNT]     write COUNT (default 24) screenshots and OUT/truth.json

The screens vary the way real ones do: phone sizes (720 to 1440 pixels wide), proportional and
monospaced fonts for the address, small grey labels, dark text on light cards, white text on
a dark theme for some, and some saved as JPEG (screenshots forwarded through messengers).
Addresses are valid encodings (EIP-55 ETH, Base58Check TRON, bech32 BTC) of hashes of fixed
labels; no keys exist for them.
"""
import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "fixtures" / "demo"))
import gen as demo  # noqa: E402  (address encodings, fonts, ImageMagick path)

FONT = demo.FONT
FONT_BOLD = demo.FONT_BOLD
FONT_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
FONT_CJK = demo.FONT_CJK
CONVERT = demo.CONVERT

SIZES = [(1080, 2340), (1170, 2532), (720, 1600), (1440, 3040), (828, 1792), (1080, 2400)]
APPS = {
    "eth": [("Trust Wallet", "转账成功", "Transfer Successful"), ("imToken", "已發送", "Sent"),
            ("OKX Wallet", "已发送", "Sent")],
    "tron": [("TronLink", "轉賬成功", "Transfer Successful"),
             ("Binance", "提現成功", "Withdrawal Successful")],
    "btc": [("BTC Wallet", "已發送", "Sent"), ("Blockchain.com", "已发送", "Sent")],
}
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def wallet(kind, i):
    d = demo.digest(f"bench-ocr:{kind}:{i}")
    if kind == "eth":
        return demo.eip55(d[:20]), "USDT", "Ethereum (ERC20)"
    if kind == "tron":
        return demo.base58check(b"\x41" + d[:20]), "USDT", "TRON (TRC20)"
    return demo.bech32_segwit_v0("bc", d[:20]), "BTC", "Bitcoin"


def im_text(s):
    return s.replace("%", "%%")


def screen(i, rng):
    kind = ["eth", "tron", "btc"][i % 3]
    address, unit, network = wallet(kind, i)
    width, height = SIZES[i % len(SIZES)]
    s = width / 1080.0
    app, cn, en = APPS[kind][(i // 3) % len(APPS[kind])]
    if kind == "btc":
        whole = rng.randint(0, 2)
        amount = f"-{whole}.{rng.randint(1, 99_999_999):08d} BTC"
    else:
        amount = f"-{rng.randint(100, 99_999):,}.{rng.randint(0, 99):02d} {unit}"
    day, hour, minute, sec = rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)
    month = rng.randint(1, 12)
    if i % 4 == 3:
        time = f"{MONTHS[month - 1]} {day}, 2025 {hour:02d}:{minute:02d}:{sec:02d}"
    else:
        time = f"2025-{month:02d}-{day:02d} {hour:02d}:{minute:02d}:{sec:02d}"
    tx = demo.digest(f"bench-ocr:tx:{i}").hex()
    if kind == "eth":
        tx = "0x" + tx
    dark = i % 5 == 4
    bg, card, fg, label_fg = (("#111827", "#1F2937", "#F9FAFB", "#9CA3AF") if dark
                              else ("#F3F5F9", "#FFFFFF", "#111111", "#6B7280"))
    addr_font = FONT_MONO if i % 2 else FONT
    code_fg = label_fg if i % 6 == 1 else fg

    def px(v):
        return str(max(1, round(v * s)))

    def fit(font, size, text, avail):
        size = round(size * s)
        while size > 12 and demo.text_width(font, size, text) > avail:
            size -= 1
        return str(size)

    a = [CONVERT, "-size", f"{width}x{height}", f"xc:{bg}"]
    a += ["-gravity", "NorthWest", "-font", FONT_BOLD, "-pointsize", px(34), "-fill", fg,
          "-annotate", f"+{px(50)}+{px(30)}", f"{hour:02d}:{minute:02d}"]
    a += ["-gravity", "North", "-font", FONT_BOLD, "-pointsize", px(40), "-fill", fg,
          "-annotate", f"+0+{px(130)}", im_text(app)]
    a += ["-gravity", "North", "-font", FONT_CJK, "-pointsize", px(52), "-fill", fg,
          "-annotate", f"+0+{px(300)}", cn]
    a += ["-gravity", "North", "-font", FONT_BOLD, "-pointsize", px(44), "-fill", fg,
          "-annotate", f"+0+{px(400)}", im_text(en)]
    a += ["-gravity", "North", "-font", FONT_BOLD, "-pointsize", px(64), "-fill", fg,
          "-annotate", f"+0+{px(490)}", im_text(amount)]
    rows = [("Network", network, FONT), ("To", address, addr_font), ("Time", time, FONT),
            ("Tx Hash" if kind != "tron" else "TxID", tx, addr_font),
            ("Network Fee", "0.00121 ETH" if kind == "eth" else ("1.1 TRX" if kind == "tron" else "0.00002100 BTC"), FONT)]
    top = round(650 * s)
    a += ["-fill", card, "-draw",
          f"roundrectangle {px(24)},{top} {width - round(24 * s)},{top + round((60 + 130 * len(rows)) * s)} {px(20)},{px(20)}"]
    y = top + round(30 * s)
    for label, value, font in rows:
        size = fit(font, 30 if font != FONT else 32, value, width - round(2 * 44 * s))
        a += ["-gravity", "NorthWest", "-font", FONT, "-pointsize", px(26), "-fill", label_fg,
              "-annotate", f"+{px(44)}+{y}", im_text(label)]
        a += ["-gravity", "NorthWest", "-font", font, "-pointsize", size,
              "-fill", code_fg if value in (address, tx) else fg,
              "-annotate", f"+{px(44)}+{y + round(44 * s)}", im_text(value)]
        y += round(130 * s)
    jpeg = i % 4 == 1
    name = f"shot_{i:02d}.{'jpg' if jpeg else 'png'}"
    a += ["-strip", "-define", "png:exclude-chunks=date,time", "+set", "date:create", "+set",
          "date:modify"]
    a += ["-quality", "80"] if jpeg else []
    return name, a, {"kind": kind, "wallet": address, "amount": amount, "time": time, "tx": tx,
                     "width": width, "height": height}


def main():
    out = Path(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(20251130)
    truth = {}
    for i in range(count):
        name, args, facts = screen(i, rng)
        args.append(("JPEG:" if name.endswith(".jpg") else "PNG24:") + str(out / name))
        subprocess.run(args, check=True)
        truth[name] = facts
    (out / "truth.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
