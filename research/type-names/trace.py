#!/usr/bin/env python3
"""Hand-walk trace of the name chain for given MTs.  usage: trace.py CORE VERSION MT..."""
import sys; sys.path.insert(0, __file__.rsplit('/', 1)[0])
from mtnames import *
c = Core(sys.argv[1]); ver = sys.argv[2]; n = Namer(c, ver)
for a in sys.argv[3:]:
    mt = int(a, 16); fl = c.u32(mt); f2 = c.u32(mt + 8); bs = c.u32(mt + 4)
    mod = c.u64(mt + 0x18); eo = c.u64(mt + 0x28); pii = c.u64(mt + 0x30)
    print('MT %#x flags %#010x flags2 %#010x basesize %d module %#x EEClassOrCanonMT %#x PerInstInfo/Elem %#x' % (mt, fl, f2, bs, mod, eo, pii))
    ee = n.eeclass(mt)
    print('   EEClass %#x (EEClass.MethodTable@0x10 = %#x) ArrayClass.Rank@0x48 = %d' % (ee, c.u64(ee + 0x10), c.read(ee + 0x48, 1)[0]))
    if fl & 0x80000000 and (fl & 0xC0000) == 0x80000:
        print('   array: %s, element TH %#x' % ('SZ' if fl & 0x20000 else 'MD rank %d' % ((bs - 24) // 8), pii))
    else:
        rid = f2 >> TOKEN_SHIFT[ver]; md = n.module_md(mod); row = md.row(2, rid)
        b = n.mdcache[mod][1]
        print('   TypeDef token %#x: flags %#x name "%s" ns "%s" (image base %#x, %s); enclosing rid %s' % (0x02000000 | rid, row[0], md.string(row[1]), md.string(row[2]), b, n.mdcache[mod][2], md.enclosing(rid) if row[0] & 7 >= 2 else '-'))
        if not (fl & 0x80000000) and fl & 0x30:
            nd, na = c.u16(pii - 4), c.u16(pii - 2); inst = c.u64(pii + (nd - 1) * 8)
            print('   generic: GenericsDictInfo@PerInstInfo-8 NumDicts %d NumTypeArgs %d; dict %#x args %s' % (nd, na, inst, [hex(c.u64(inst + 8 * i)) for i in range(na)]))
    print('   => %s' % n.name(mt))
