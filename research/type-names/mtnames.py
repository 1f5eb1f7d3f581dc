#!/usr/bin/env python3
"""Throwaway research script (issue 19): resolve MethodTable -> type name from ECMA-335 metadata
in an ELF core, without the DAC.  Usage:
    mtnames.py CORE VERSION LIVE_OBJECTS [--verbose MT...]
VERSION is net8|net9|net10 (selects Module.Base offset).  Compares every distinct MT of LIVE_OBJECTS
with the name composed here (in the EventPipe/GCBulkType spelling live-objects.txt uses)."""
import struct, sys, collections

# Module -> loaded image base (PEImageLayout base cached in Module::m_baseAddress)
MODULE_BASE_CACHED = {'net9': 0x120, 'net10': 0xe0}          # not in 8.0
TOKEN_SHIFT = {'net8': 16, 'net9': 8, 'net10': 8}  # 8.0: WORD m_wToken; 9+: 24-bit RID above 8 flag bits
MODULE_PEASSEMBLY = {'net8': 0x110, 'net9': 0x118, 'net10': 0xd8}
PEIMAGE_LAYOUTS = {'net8': (0x78, 0x70), 'net9': (0x78, 0x70), 'net10': (0x80, 0x78)}  # (loaded, flat)
MT_FLAGS, MT_BASESIZE, MT_FLAGS2, MT_PARENT, MT_MODULE, MT_CANON, MT_PERINST = 0, 4, 8, 0x10, 0x18, 0x28, 0x30

class Core:
    def __init__(self, path):
        self.f = open(path, 'rb'); d = self.f.read(64)
        phoff, = struct.unpack_from('<Q', d, 0x20); phentsize, phnum = struct.unpack_from('<HH', d, 0x36)
        self.f.seek(phoff); ph = self.f.read(phentsize * phnum); self.loads = []
        for i in range(phnum):
            t, fl, off, va, pa, fsz, msz, al = struct.unpack_from('<IIQQQQQQ', ph, i * phentsize)
            if t == 1: self.loads.append((va, off, fsz, msz))
        self.loads.sort()
    def present(self, va, n=1):
        for v, o, fs, ms in self.loads:
            if v <= va and va + n <= v + fs: return True
        return False
    def read(self, va, n):
        for v, o, fs, ms in self.loads:
            if v <= va < v + ms:
                if va + n > v + fs: raise KeyError('not in dump: %#x' % va)
                self.f.seek(o + va - v); return self.f.read(n)
        raise KeyError('unmapped: %#x' % va)
    def u16(self, a): return struct.unpack('<H', self.read(a, 2))[0]
    def u32(self, a): return struct.unpack('<I', self.read(a, 4))[0]
    def u64(self, a): return struct.unpack('<Q', self.read(a, 8))[0]

# ---- ECMA-335 #~ schema -------------------------------------------------------------------------
CODED = {'TDOR': (2, [2, 1, 0x1b]), 'HC': (2, [4, 8, 0x17]),
         'HCA': (5, [6, 4, 1, 2, 8, 9, 0xa, 0, 0xe, 0x17, 0x14, 0x11, 0x1a, 0x1b, 0x20, 0x23, 0x26, 0x27, 0x28, 0x2a, 0x2c, 0x2b]),
         'HFM': (1, [4, 8]), 'HDS': (2, [2, 6, 0x20]), 'MRP': (3, [2, 1, 0x1a, 6, 0x1b]), 'HS': (1, [0x14, 0x17]),
         'MDOR': (1, [6, 0xa]), 'MF': (1, [4, 6]), 'IMPL': (2, [0x26, 0x23, 0x27]), 'CAT': (3, [6, 0xa]),
         'RS': (2, [0, 0x1a, 0x23, 1]), 'TOMD': (1, [2, 6])}
SCHEMA = {0: '2 S G G G', 1: 'c:RS S S', 2: '4 S S c:TDOR t:4 t:6', 3: 't:4', 4: '2 S B', 5: 't:6', 6: '4 2 2 S B t:8',
          7: 't:8', 8: '2 2 S', 9: 't:2 c:TDOR', 0xa: 'c:MRP S B', 0xb: '2 c:HC B', 0xc: 'c:HCA c:CAT B', 0xd: 'c:HFM B',
          0xe: '2 c:HDS B', 0xf: '2 4 t:2', 0x10: '4 t:4', 0x11: 'B', 0x12: 't:2 t:20', 0x13: 't:20', 0x14: '2 S c:TDOR',
          0x15: 't:2 t:23', 0x16: 't:23', 0x17: '2 S B', 0x18: '2 t:6 c:HS', 0x19: 't:2 c:MDOR c:MDOR', 0x1a: 'S',
          0x1b: 'B', 0x1c: '2 c:MF S t:26', 0x1d: '4 t:4', 0x1e: '4 4', 0x1f: '4', 0x20: '4 2 2 2 2 4 B S S', 0x21: '4',
          0x22: '4 4 4', 0x23: '2 2 2 2 4 B S S B', 0x24: '4 t:35', 0x25: '4 4 4 t:35', 0x26: '4 S B', 0x27: '4 4 S S c:IMPL',
          0x28: '4 4 S c:IMPL', 0x29: 't:2 t:2', 0x2a: '2 2 c:TOMD S', 0x2b: 'c:MDOR B', 0x2c: 't:42 c:TDOR'}

class Metadata:
    """Parses the metadata root at `md` (a process address) read through `rd(addr, n)`."""
    def __init__(self, rd, md):
        self.rd = rd
        assert rd(md, 4) == b'BSJB', 'no BSJB at %#x' % md
        vlen = struct.unpack('<I', rd(md + 12, 4))[0]; self.version = rd(md + 16, vlen).rstrip(b'\0').decode()
        p = md + 16 + vlen + 2; nstreams = struct.unpack('<H', rd(p, 2))[0]; p += 2; self.streams = {}
        for _ in range(nstreams):
            off, size = struct.unpack('<II', rd(p, 8)); p += 8; name = b''
            while True:
                c = rd(p, 4); p += 4; name += c
                if b'\0' in c: break
            self.streams[name.split(b'\0')[0].decode()] = (md + off, size)
        t = self.streams.get('#~') or self.streams['#-']; tb = t[0]
        hs = rd(tb + 6, 1)[0]; valid, = struct.unpack('<Q', rd(tb + 8, 8))
        self.sw, self.gw, self.bw = (4 if hs & 1 else 2), (4 if hs & 2 else 2), (4 if hs & 4 else 2)
        p = tb + 24; self.rows = {}
        for i in range(64):
            if valid >> i & 1: self.rows[i] = struct.unpack('<I', rd(p, 4))[0]; p += 4
        if hs & 0x20: p += 4
        self.cols = {}; self.tstart = {}
        for i in range(0x2d):
            cols = []
            for c in SCHEMA[i].split():
                if c == '2': w = 2
                elif c == '4': w = 4
                elif c == 'S': w = self.sw
                elif c == 'G': w = self.gw
                elif c == 'B': w = self.bw
                elif c.startswith('t:'): w = 4 if self.rows.get(int(c[2:]), 0) > 0xffff else 2
                else:
                    bits, tabs = CODED[c[2:]]; w = 4 if max(self.rows.get(x, 0) for x in tabs) >= (1 << (16 - bits)) else 2
                cols.append(w)
            self.cols[i] = cols; self.tstart[i] = p; p += sum(cols) * self.rows.get(i, 0)
    def row(self, table, rid):
        assert 1 <= rid <= self.rows.get(table, 0), (table, rid)
        cols = self.cols[table]; raw = self.rd(self.tstart[table] + (rid - 1) * sum(cols), sum(cols)); out = []; o = 0
        for w in cols: out.append(struct.unpack_from('<H' if w == 2 else '<I', raw, o)[0]); o += w
        return out
    def string(self, idx):
        base = self.streams['#Strings'][0]; out = b''
        while True:
            c = self.rd(base + idx + len(out), 32); z = c.find(b'\0')
            if z >= 0: return (out + c[:z]).decode('utf-8', 'replace')
            out += c
    def enclosing(self, rid):
        for r in range(1, self.rows.get(0x29, 0) + 1):
            n, e = self.row(0x29, r)
            if n == rid: return e
        return 0
    def typedef_name(self, rid, nested_sep='+'):
        flags, name, ns = self.row(2, rid)[:3]; n = self.string(name)
        if (flags & 0x7) >= 2:  # nested visibility
            enc = self.enclosing(rid)
            return self.typedef_name(enc, nested_sep)[0] + nested_sep + n, n
        s = self.string(ns); return (s + '.' + n if s else n), n

def pe_metadata(core, base):
    """PE at `base` -> (metadata address, layout kind).  Tries mapped (RVA = offset) then flat (file offset)."""
    assert core.read(base, 2) == b'MZ'
    pe = base + core.u32(base + 0x3c); assert core.read(pe, 4) == b'PE\0\0'
    nsec = core.u16(pe + 6); optsz = core.u16(pe + 20); opt = pe + 24; magic = core.u16(opt)
    dd = opt + (96 if magic == 0x10b else 112); cli_rva = core.u32(dd + 14 * 8)
    secs = []
    for i in range(nsec):
        s = opt + optsz + i * 40; vsz, va, rsz, rptr = struct.unpack('<IIII', core.read(s + 8, 16)); secs.append((va, vsz, rptr, rsz))
    def flat(rva):
        for va, vsz, rptr, rsz in secs:
            if va <= rva < va + max(vsz, rsz): return rva - va + rptr
        return rva
    for kind, conv in (('mapped', lambda r: r), ('flat', flat)):
        try:
            cli = base + conv(cli_rva)
            if core.u32(cli) != 72: continue
            md = base + conv(core.u32(cli + 8))
            if core.read(md, 4) == b'BSJB': return md, kind, cli
        except KeyError: pass
    raise KeyError('no metadata for image at %#x' % base)

class Namer:
    def __init__(self, core, ver):
        self.core, self.ver, self.mdcache = core, ver, {}
    def module_md(self, module):
        if module not in self.mdcache:
            md = None
            for base in self.image_bases(module):
                try: md, kind, cli = pe_metadata(self.core, base); break
                except KeyError as e: err = e
            if md is None: raise err
            self.mdcache[module] = (Metadata(self.core.read, md), base, kind)
        return self.mdcache[module][0]
    def image_bases(self, module):
        """Module::m_baseAddress (9, 10), then PEAssembly(+8)->PEImage loaded/flat PEImageLayout (+8 = base)."""
        c = self.core; out = []
        if self.ver in MODULE_BASE_CACHED: out.append(c.u64(module + MODULE_BASE_CACHED[self.ver]))
        img = c.u64(c.u64(module + MODULE_PEASSEMBLY[self.ver]) + 8)
        for o in PEIMAGE_LAYOUTS[self.ver]:
            lay = c.u64(img + o)
            if lay: out.append(c.u64(lay + 8))
        return out
    def canon(self, mt):
        c = self.core.u64(mt + MT_CANON)
        return c - 1 if c & 1 else mt
    def eeclass(self, mt):
        c = self.core.u64(mt + MT_CANON)
        return self.core.u64(c - 1 + MT_CANON) if c & 1 else c
    def name(self, th, top=True):
        c = self.core
        if th & 2:  # TypeDesc
            td = th & ~3; tf = c.u32(td) & 0xff
            if tf == 0x0f: return self.name(c.u64(td + 16)) + '*'
            if tf == 0x10: return self.name(c.u64(td + 16)) + '&'
            return '<TypeDesc elemtype %#x>' % tf
        flags = c.u32(th + MT_FLAGS)
        if flags & 0x80000000 and (flags & 0xC0000) == 0x80000:  # array
            elem = c.u64(th + MT_PERINST)
            if flags & 0x20000: return self.name(elem, top) + '[]'
            rank = (c.u32(th + MT_BASESIZE) - 24) // 8
            return self.name(elem, top) + '[' + ',' * (rank - 1) + ']'
        tok_rid = c.u32(th + MT_FLAGS2) >> TOKEN_SHIFT[self.ver]
        md = self.module_md(c.u64(th + MT_MODULE)); full, short = md.typedef_name(tok_rid, '+')
        # EventPipe's GCBulkType spelling: nested types as the bare inner name
        ep = short if ('+' in full and top) else full
        if not (flags & 0x80000000) and flags & 0x30:  # generic
            pii = c.u64(th + MT_PERINST); ndicts = c.u16(pii - 4); ntargs = c.u16(pii - 2)
            inst = c.u64(pii + (ndicts - 1) * 8)
            args = [self.name(c.u64(inst + 8 * i), False) for i in range(ntargs)]
            ep += '[' + ','.join(args) + ']'
        return ep

def main():
    core = Core(sys.argv[1]); ver = sys.argv[2]; n = Namer(core, ver)
    mts = collections.OrderedDict()
    for line in open(sys.argv[3]):
        if line.startswith('#'): continue
        a, s, mt, t = line.split(None, 3); mts.setdefault(int(mt, 16), t.strip())
    ok = bad = err = 0
    for mt, want in mts.items():
        try: got = n.name(mt)
        except Exception as e: got = 'ERROR %s' % e
        if got == want: ok += 1
        elif got.startswith('ERROR'): err += 1; print('ERR  %#x %s -> %s' % (mt, want, got))
        else: bad += 1; print('DIFF %#x want %s got %s' % (mt, want, got))
    print('%s: %d distinct MTs, %d match, %d differ, %d errors' % (sys.argv[1], len(mts), ok, bad, err))
    for m, (md, base, kind) in n.mdcache.items():
        print('  module %#x image base %#x layout %s md version %s rows TypeDef=%d' % (m, base, kind, md.version, md.rows.get(2, 0)))


def report_modules(core_path, ver, live):
    """For every Module reached from live-objects MTs: each candidate image base and whether its CLI header /
    metadata root are present in the dump."""
    c = Core(core_path); n = Namer(c, ver); mods = set()
    for line in open(live):
        if line.startswith('#'): continue
        mt = int(line.split()[2], 16)
        try: mods.add(c.u64(mt + MT_MODULE))
        except KeyError: pass
    for m in sorted(mods):
        try:
            img = c.u64(c.u64(m + MODULE_PEASSEMBLY[ver]) + 8)
            path = c.read(c.u64(img + 0x10), 400).decode('utf-16le', 'replace').split('\0')[0]
        except KeyError as e: img, path = 0, '? %s' % e
        cands = []
        if ver in MODULE_BASE_CACHED: cands.append(('Module.Base', c.u64(m + MODULE_BASE_CACHED[ver])))
        for o, nm in zip(PEIMAGE_LAYOUTS[ver], ('loaded', 'flat')):
            lay = c.u64(img + o) if img else 0
            cands.append((nm, c.u64(lay + 8) if lay else 0))
        out = []
        for nm, b in cands:
            if not b: out.append('%s=null' % nm); continue
            try: md, kind, cli = pe_metadata(c, b); out.append('%s=%#x OK(%s)' % (nm, b, kind))
            except KeyError as e: out.append('%s=%#x MISSING(%s)' % (nm, b, e))
            except AssertionError as e: out.append('%s=%#x NO-MZ' % (nm, b))
        print('  module %#x %s\n      %s' % (m, path.rsplit('/', 1)[-1], '; '.join(out)))

if __name__ == '__main__' and len(sys.argv) > 4 and sys.argv[4] == '--modules':
    report_modules(sys.argv[1], sys.argv[2], sys.argv[3])

if __name__ == '__main__' and not (len(sys.argv) > 4 and sys.argv[4] == '--modules'):
    main()
