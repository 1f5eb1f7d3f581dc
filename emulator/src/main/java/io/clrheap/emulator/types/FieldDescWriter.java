package io.clrheap.emulator.types;

import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.scenario.FieldLayout;
import io.clrheap.emulator.scenario.FieldSpec;
import io.clrheap.emulator.scenario.FieldType;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.truth.FieldTruth;
import io.clrheap.value.ElementType;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of a type's EEClass as the runtime keeps them (docs/reference/fields.md sections 2-3): the FieldDesc list
 * of the fields the class introduces, instance fields first then statics, in the loader heap; {@code m_pFieldDescList},
 * {@code m_NormType} and the counts: in the EEClass on 9 and 10 (16-bit, NumInstanceFields with the inherited ones), in
 * the unpacked EEClassPackedFields at {@code EEClass + m_cbFixedEEClassFields} on 8 ({@code m_fFieldsArePacked} 0,
 * as in every EEClass of the 8.0 dumps). Offsets from the build's profile, Linux or Windows.
 */
final class FieldDescWriter {

    /** FieldDesc dword1: m_mb in bits 0-23, m_isStatic bit 24, m_prot bits 27-29 (field.h). */
    private static final int STATIC_BIT = 1 << 24;
    private static final int PROTECTION_SHIFT = 27;
    /** m_prot of a public field: FieldAttributes.Public (6) & FieldAccessMask (docs/reference/fields.md section 3). */
    private static final int PUBLIC = 6;
    /** FieldDesc dword2: m_dwOffset in bits 0-26, m_type in bits 27-31 (field.h). */
    private static final int TYPE_SHIFT = 27;
    /** Where an emulated static says its value is in the statics block: one 8-byte slot each (no statics block is laid out). */
    private static final int STATIC_SLOT = 8;

    private final Process process;
    private final AssemblyPlan plan;

    FieldDescWriter(Process process, AssemblyPlan plan) {
        this.process = process;
        this.plan = plan;
    }

    /** Writes {@code type}'s FieldDescs and its EEClass's field facts; {@code mt} is its MethodTable, {@code eeClass} its EEClass. */
    void write(TypeDef type, long mt, long eeClass) {
        var memory = process.memory();
        var layout = process.layout();
        int[] offsets = FieldLayout.of(type).offsets();
        List<Integer> order = new ArrayList<>();
        int statics = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < type.fields().size(); i++) {
                if (type.fields().get(i).isStatic() == (pass == 1)) {
                    order.add(i);
                    statics += pass;
                }
            }
        }
        long size = layout.type("FieldDesc").size().orElseThrow();
        long list = order.isEmpty() ? 0 : process.loaderHeap().allocate(size * order.size(), 8);
        int staticSlot = 0;
        for (int k = 0; k < order.size(); k++) {
            int i = order.get(k);
            FieldSpec f = type.fields().get(i);
            long fd = list + k * size;
            int rid = plan.fieldRid(type, i);
            if (rid > 0x1ffff) {
                throw new IllegalArgumentException(type.name() + "." + f.name() + ": Field RID " + rid + " needs m_requiresFullMbValue, which the emulator does not write");
            }
            int offset = f.isStatic() ? STATIC_SLOT * staticSlot++ : offsets[i];
            memory.writePointer(fd + layout.offset("FieldDesc", "MTOfEnclosingClass"), mt);
            memory.writeInt(fd + layout.offset("FieldDesc", "DWord1"), rid | (f.isStatic() ? STATIC_BIT : 0) | PUBLIC << PROTECTION_SHIFT);
            memory.writeInt(fd + layout.offset("FieldDesc", "DWord2"), offset | f.type().storedType() << TYPE_SHIFT);
        }
        memory.writePointer(eeClass + layout.offset("EEClass", "FieldDescList"), list);
        int normType = type.shape() == TypeDef.Shape.CLASS ? ElementType.CLASS
                : type.isEnum() ? type.fields().getFirst().type().primitive() : ElementType.VALUETYPE;
        memory.writeByte(eeClass + layout.offset("EEClass", "NormType"), (byte) normType);
        int instance = instanceFieldCount(type);
        if (layout.type("EEClass").findField("NumInstanceFields").isPresent()) {
            memory.writeShort(eeClass + layout.offset("EEClass", "NumInstanceFields"), (short) instance);
            memory.writeShort(eeClass + layout.offset("EEClass", "NumStaticFields"), (short) statics);
            memory.writeShort(eeClass + layout.offset("EEClass", "NumThreadStaticFields"), (short) 0);
        } else {
            int fixed = (int) layout.constant("eeclass.fixed_size");
            memory.writeByte(eeClass + layout.offset("EEClass", "FieldsArePacked"), (byte) 0);
            memory.writeByte(eeClass + layout.offset("EEClass", "FixedEEClassFields"), (byte) fixed);
            long block = eeClass + fixed;
            memory.writeInt(block + layout.constant("eeclass.packed.num_instance_fields"), instance);
            memory.writeInt(block + layout.constant("eeclass.packed.num_static_fields"), statics);
            memory.writeInt(block + layout.constant("eeclass.packed.num_thread_static_fields"), 0);
        }
    }

    /** NumInstanceFields: the type's instance fields and its base classes'. */
    static int instanceFieldCount(TypeDef type) {
        int n = 0;
        for (TypeDef t = type; t != null; t = t.parent()) {
            n += (int) t.fields().stream().filter(f -> !f.isStatic()).count();
        }
        return n;
    }

    /** The rows fields.tsv gives each object of {@code type}: base-most class first, each struct's fields after it. */
    static List<FieldTruth> truth(TypeDef type) {
        List<FieldTruth> out = new ArrayList<>();
        List<TypeDef> chain = new ArrayList<>();
        for (TypeDef t = type; t != null; t = t.parent()) {
            chain.addFirst(t);
        }
        for (TypeDef t : chain) {
            // the fields of a class or boxed value follow its MethodTable word
            add(out, t, "", 8);
        }
        return List.copyOf(out);
    }

    private static void add(List<FieldTruth> out, TypeDef type, String prefix, int base) {
        int[] offsets = FieldLayout.of(type).offsets();
        for (int i = 0; i < type.fields().size(); i++) {
            FieldSpec f = type.fields().get(i);
            if (f.isStatic()) {
                continue;
            }
            int at = base + offsets[i];
            out.add(new FieldTruth(prefix + f.name(), f.type().name(), at, f.type().storedType()));
            if (f.type().kind() == FieldType.Kind.STRUCT) {
                add(out, f.type().valueType(), prefix + f.name() + ".", at);
            }
        }
    }
}
