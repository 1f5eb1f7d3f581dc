package io.clrheap.walker.fields;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import java.util.ArrayList;
import java.util.List;

/**
 * A class's fields as the runtime keeps them (docs/reference/fields.md): MethodTable → (canonical MethodTable →)
 * EEClass → the FieldDesc list of the fields the class introduces, instance fields first; the counts in the EEClass
 * (9 and 10) or in the EEClassPackedFields right after it (8). An object's instance fields are its class's and every
 * base class's, base-most first (SOS's DisplayFields). Every count is capped and every list bounded by its count.
 */
public final class FieldDescReader {

    /** A class has at most 65,535 fields of a kind (the counts are 16-bit in 9 and 10). */
    static final int MAX_FIELDS = 0xffff;
    /** Deeper inheritance than this is a cycle in a corrupt dump. */
    static final int MAX_DEPTH = 256;

    private final Memory memory;
    private final long parentOffset;
    private final long eeClassOrCanon;
    private final long fieldDescList;
    private final long fieldDescSize;
    private final long enclosing;
    private final long dword1;
    private final long dword2;
    /** 9 and 10: the 16-bit counts' offsets in the EEClass; -1 in 8, whose counts follow the EEClass. */
    private final long numInstance;
    private final long numStatic;
    private final long numThreadStatic;
    private final long packedFlag;
    private final long fixedSize;
    private final long packedInstance;
    private final long packedStatic;
    private final long packedThreadStatic;

    public FieldDescReader(Memory memory, RuntimeLayout layout) {
        this.memory = memory;
        this.parentOffset = layout.offset("MethodTable", "ParentMethodTable");
        this.eeClassOrCanon = layout.offset("MethodTable", "EEClassOrCanonMT");
        this.fieldDescList = layout.offset("EEClass", "FieldDescList");
        this.fieldDescSize = layout.type("FieldDesc").size().orElseThrow();
        this.enclosing = layout.offset("FieldDesc", "MTOfEnclosingClass");
        this.dword1 = layout.offset("FieldDesc", "DWord1");
        this.dword2 = layout.offset("FieldDesc", "DWord2");
        var eeClass = layout.type("EEClass");
        boolean plain = eeClass.findField("NumInstanceFields").isPresent();
        this.numInstance = plain ? layout.offset("EEClass", "NumInstanceFields") : -1;
        this.numStatic = plain ? layout.offset("EEClass", "NumStaticFields") : -1;
        this.numThreadStatic = plain ? layout.offset("EEClass", "NumThreadStaticFields") : -1;
        this.packedFlag = plain ? -1 : layout.offset("EEClass", "FieldsArePacked");
        this.fixedSize = plain ? -1 : layout.offset("EEClass", "FixedEEClassFields");
        this.packedInstance = plain ? 0 : layout.constant("eeclass.packed.num_instance_fields");
        this.packedStatic = plain ? 0 : layout.constant("eeclass.packed.num_static_fields");
        this.packedThreadStatic = plain ? 0 : layout.constant("eeclass.packed.num_thread_static_fields");
    }

    /** What the EEClass counts: instance fields with the inherited ones, this class's statics and thread statics. */
    public record Counts(int instance, int statics, int threadStatics) {
    }

    /** The canonical MethodTable of {@code mt}: itself, or the one EEClassOrCanonMT names (low bit 1). */
    public long canonical(long mt) {
        long v = memory.readPointer(mt + eeClassOrCanon);
        return (v & 1) != 0 ? v - 1 : mt;
    }

    /** The EEClass of {@code mt} (through its canonical MethodTable). */
    public long eeClass(long mt) {
        long canon = canonical(mt);
        long v = memory.readPointer(canon + eeClassOrCanon);
        if ((v & 1) != 0 || v == 0) {
            throw new FieldLayoutException(canon + eeClassOrCanon, String.format(
                    "MethodTable 0x%x: its canonical MethodTable 0x%x names no EEClass (EEClassOrCanonMT 0x%x)", mt, canon, v));
        }
        return v;
    }

    /** The parent MethodTable, 0 for System.Object and interfaces. */
    public long parent(long mt) {
        return memory.readPointer(mt + parentOffset);
    }

    /** The EEClass's field counts. */
    public Counts counts(long eeClass) {
        Counts c;
        if (numInstance >= 0) {
            c = new Counts(memory.readU16(eeClass + numInstance), memory.readU16(eeClass + numStatic), memory.readU16(eeClass + numThreadStatic));
        } else {
            if (memory.readU8(eeClass + packedFlag) != 0) {
                throw new FieldLayoutException(eeClass + packedFlag, String.format(
                        "EEClass 0x%x keeps its counts packed (m_fFieldsArePacked = 1), which only NGen images did: not read", eeClass));
            }
            long block = eeClass + memory.readU8(eeClass + fixedSize);
            c = new Counts((int) Math.min(memory.readU32(block + packedInstance), Integer.MAX_VALUE),
                    (int) Math.min(memory.readU32(block + packedStatic), Integer.MAX_VALUE),
                    (int) Math.min(memory.readU32(block + packedThreadStatic), Integer.MAX_VALUE));
        }
        if (c.instance() > MAX_FIELDS || c.statics() > MAX_FIELDS || c.threadStatics() > c.statics()) {
            throw new FieldLayoutException(eeClass, String.format("EEClass 0x%x counts %d instance, %d static and %d thread-static fields: no real class",
                    eeClass, c.instance(), c.statics(), c.threadStatics()));
        }
        return c;
    }

    /** The fields {@code mt}'s class introduces: its own instance fields (metadata order), then its statics. */
    public List<FieldDesc> introduced(long mt) {
        long eeClass = eeClass(mt);
        Counts mine = counts(eeClass);
        long parent = parent(mt);
        int inherited = parent == 0 ? 0 : counts(eeClass(parent)).instance();
        int own = mine.instance() - inherited;
        if (own < 0) {
            throw new FieldLayoutException(eeClass, String.format("EEClass 0x%x counts %d instance fields, fewer than its parent's %d",
                    eeClass, mine.instance(), inherited));
        }
        int total = own + mine.statics();
        List<FieldDesc> fields = new ArrayList<>(Math.min(total, 256));
        if (total == 0) {
            return fields;
        }
        long list = memory.readPointer(eeClass + fieldDescList);
        if (list == 0) {
            throw new FieldLayoutException(eeClass + fieldDescList, String.format("EEClass 0x%x counts %d fields of its own but has no FieldDesc list", eeClass, total));
        }
        for (int i = 0; i < total; i++) {
            long fd = list + i * fieldDescSize;
            long d1 = memory.readU32(fd + dword1);
            long d2 = memory.readU32(fd + dword2);
            // field.h: the RID is 17 bits (a name hash above) unless m_requiresFullMbValue (bit 30) says 24
            int rid = (int) ((d1 & (1L << 30)) != 0 ? d1 & 0xffffff : d1 & 0x1ffff);
            fields.add(new FieldDesc(fd, memory.readPointer(fd + enclosing), rid, (d1 & (1L << 24)) != 0, (d1 & (1L << 25)) != 0,
                    (int) (d1 >>> 27) & 7, d2 & 0x7ffffff, (int) (d2 >>> 27)));
        }
        return fields;
    }

    /** {@code mt} and its base classes, base-most first (System.Object's MethodTable first for a class). */
    public List<Long> chain(long mt) {
        List<Long> chain = new ArrayList<>();
        for (long t = mt; t != 0; t = parent(t)) {
            if (chain.size() >= MAX_DEPTH) {
                throw new FieldLayoutException(t, String.format("MethodTable 0x%x: more than %d base classes (a cycle?)", mt, MAX_DEPTH));
            }
            chain.add(0, t);
        }
        return chain;
    }

    /** Every instance field of an object of type {@code mt}: the base-most class's first, each class's in its order. */
    public List<FieldDesc> instanceFields(long mt) {
        List<FieldDesc> fields = new ArrayList<>();
        for (long t : chain(mt)) {
            for (FieldDesc f : introduced(t)) {
                if (!f.isStatic()) {
                    fields.add(f);
                }
            }
        }
        return fields;
    }

    /** The static fields {@code mt}'s class declares (thread statics among them). */
    public List<FieldDesc> staticFields(long mt) {
        return introduced(mt).stream().filter(FieldDesc::isStatic).toList();
    }
}
