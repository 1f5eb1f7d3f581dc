#!/usr/bin/env python3
"""Scan Module -> PEAssembly(+8 PEImage) -> PEImage for PEImageLayout pointers (layout+8 = base 'MZ').
usage: scan_peimage.py CORE MT MODULE_PEASSEMBLY_OFFSET"""
import sys; sys.path.insert(0, __file__.rsplit('/', 1)[0])
from mtnames import *
c = Core(sys.argv[1]); mt = int(sys.argv[2], 16); peaoff = int(sys.argv[3], 16)
mod = c.u64(mt + 0x18); pea = c.u64(mod + peaoff); print('module %#x PEAssembly %#x' % (mod, pea))
for o in range(0, 0x60, 8): print('  PEAssembly+%#x = %#x' % (o, c.u64(pea + o)))
img = c.u64(pea + 8); print('PEImage %#x' % img)
for o in range(0, 0xc0, 8):
    v = c.u64(img + o); tag = ''
    try:
        b = c.u64(v + 8)
        if c.read(b, 2) == b'MZ':
            md, kind, cli = pe_metadata(c, b); tag = 'layout? base %#x size %#x flags %#x -> metadata %s (%s)' % (b, c.u32(v + 16), c.u32(v + 20), hex(md), kind)
    except Exception as e: pass
    try:
        s = c.read(v, 64)
        if s[1:2] == b'\0' and 32 <= s[0] < 127: tag += ' utf16 %r' % s.decode('utf-16le', 'replace').split('\0')[0]
    except Exception: pass
    print('  PEImage+%#x = %#x %s' % (o, v, tag))
