#!/usr/bin/env python3
"""Writes IMAGE as the sparse block records `fuzzing::sparse_blocks` reads: a u32 block count,
then u32 index + 4 KiB for each block that is not all zeros. For fuzz seeds of formats whose
smallest valid image is mostly zeros (F2FS, VHDX); used by seeds.sh and by
tests/fixtures/f2fs/make-compressed.sh.

    sparse_blocks.py IMAGE OUT
"""
import struct
import sys

d = open(sys.argv[1], 'rb').read()
n = (len(d) + 4095) // 4096
out = [struct.pack('<I', n)]
for i in range(n):
    b = d[i * 4096:(i + 1) * 4096]
    if b.strip(b'\0'):
        out.append(struct.pack('<I', i) + b)
open(sys.argv[2], 'wb').write(b''.join(out))
