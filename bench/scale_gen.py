#!/usr/bin/env python3
"""A folder of FILES tiny files for bench/scale.sh: a home-directory-like tree of users,
projects, photo albums, mail exports and logs, nested 3-6 levels, with realistic names and
extensions (text, logs, CSV, JSON, source code, images, documents, archives, files with no
extension). Contents are a few to a few hundred bytes; a text file in 500 names an e-mail
address, so the identifier path is exercised too. Deterministic (seeded), times fixed.

    scale_gen.py DIR FILES
"""
import os, random, sys

root, total = sys.argv[1], int(sys.argv[2])
rng = random.Random(24)
users = ["alice", "bob", "chan.mh", "fung.cc", "leung.yl", "admin", "guest", "svc-backup"]
words = ["invoice", "notes", "report", "draft", "budget", "minutes", "todo", "summary",
         "contract", "receipt", "statement", "backup", "export", "scan", "memo", "plan"]
exts = [("txt", 30), ("log", 12), ("csv", 8), ("json", 8), ("md", 4), ("py", 6), ("rs", 4),
        ("js", 4), ("jpg", 6), ("png", 4), ("pdf", 3), ("docx", 2), ("xlsx", 1), ("zip", 1),
        ("dat", 4), ("", 3)]
ext_pool = [e for e, w in exts for _ in range(w)]

def folders():
    """An endless sequence of nested folders, 3-6 levels below the root."""
    n = 0
    while True:
        u = users[n % len(users)]
        kind = n % 5
        if kind == 0:
            yield f"home/{u}/Documents/{2019 + n % 6}/{words[n % len(words)]}s"
        elif kind == 1:
            yield f"home/{u}/projects/proj-{n:05d}/src/module_{n % 7}"
        elif kind == 2:
            yield f"home/{u}/Pictures/album {n:05d}/raw"
        elif kind == 3:
            yield f"var/log/app-{n % 13}/{2020 + n % 5}-{1 + n % 12:02d}"
        else:
            yield f"home/{u}/Downloads/mail export {n:05d}/attachments/part{n % 3}"
        n += 1

made = 0
per_folder = 250
for folder in folders():
    if made >= total:
        break
    d = os.path.join(root, folder)
    os.makedirs(d, exist_ok=True)
    for i in range(min(per_folder, total - made)):
        ext = rng.choice(ext_pool)
        name = f"{rng.choice(words)}_{made:07d}" + (f".{ext}" if ext else "")
        body = f"{name} line {i}\n" * rng.randint(0, 8)
        if ext == "txt" and made % 500 == 0:
            body += f"contact: {users[made % len(users)].replace('.', '')}{made}@example.org\n"
        p = os.path.join(d, name)
        with open(p, "w") as f:
            f.write(body)
        os.utime(p, (1700000000 + made, 1700000000 + made))
        made += 1
print(made)
