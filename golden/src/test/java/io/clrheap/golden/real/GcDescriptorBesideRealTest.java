package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.types.GcDescriptor;
import io.clrheap.memory.Memory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The emulator writes GC descriptors as the runtime does: for every type with references among the live objects of a
 * real .NET 9 dump, a type with the same references (read from the real descriptor) gets from {@link GcDescriptor}
 * the same bytes — plain series (one per run of adjacent references, the lowest offset highest), arrays of references,
 * and the repeating series of arrays of structs with references (Dictionary's entries). The runtime does not merge
 * adjacent series that come from different classes of a hierarchy; those types are left out (the emulator has no
 * hierarchy of fields), and so are multi-dimensional arrays of references (the emulator's md-arrays hold values).
 */
class GcDescriptorBesideRealTest {

    private static final int CONTAINS_GC_POINTERS = 0x01000000;
    private static final int HAS_COMPONENT_SIZE = 0x80000000;

    @Test
    void everyRealDescriptorIsWhatTheEmulatorWritesForTheSameReferences() {
        RealDump dump = RealDump.of("net9-withheap");
        Memory memory = dump.target.memory();
        Map<Long, String> types = new LinkedHashMap<>();
        dump.liveObjects().forEach(o -> types.putIfAbsent(o.mt(), o.type()));
        int plain = 0;
        int referenceArrays = 0;
        int repeating = 0;
        for (var e : types.entrySet()) {
            long mt = e.getKey();
            int flags = memory.readInt(mt);
            if ((flags & CONTAINS_GC_POINTERS) == 0) {
                continue;
            }
            int baseSize = memory.readInt(mt + 4);
            long count = memory.readLong(mt - 8);
            int size = count > 0 ? (int) (8 + 16 * count) : (int) (8 + 16 + 8 * (-count - 1));
            byte[] real = memory.readBytes(mt - size, size);
            TypeDef same;
            if ((flags & HAS_COMPONENT_SIZE) != 0 && baseSize != 24) {
                continue; // a multi-dimensional array (BaseSize 24 + 8 x rank): the emulator's hold no references
            } else if ((flags & HAS_COMPONENT_SIZE) != 0 && count > 0) {
                same = TypeDef.referenceArray("Real.T[]");
                referenceArrays++;
            } else if ((flags & HAS_COMPONENT_SIZE) != 0) {
                int componentSize = flags & 0xffff;
                List<Integer> inElement = new ArrayList<>();
                long at = memory.readLong(mt - 16) - TypeDef.SZ_ARRAY_DATA_OFFSET;
                for (long i = 0; i > count; i--) {
                    long item = mt - 24 + 8 * i;
                    for (long p = 0; p < memory.readU32(item); p++, at += 8) {
                        inElement.add((int) at);
                    }
                    at += memory.readU32(item + 4);
                }
                same = TypeDef.structArray("Real.T[]", componentSize, inElement);
                repeating++;
            } else {
                List<Integer> offsets = new ArrayList<>();
                long previousEnd = -1;
                boolean adjacent = false;
                for (long series = mt - 24; series >= mt - 8 - 16 * count; series -= 16) {
                    long start = memory.readLong(series + 8);
                    long end = start + memory.readLong(series) + baseSize;
                    adjacent |= start == previousEnd;
                    for (long o = start; o < end; o += 8) {
                        offsets.add((int) o);
                    }
                    previousEnd = end;
                }
                if (adjacent) {
                    continue;
                }
                same = TypeDef.ofClass("Real.T", baseSize, offsets, false);
                plain++;
            }
            assertThat(GcDescriptor.of(same).bytes()).as("%s (MethodTable 0x%x)", e.getValue(), mt).isEqualTo(real);
        }
        assertThat(plain).isPositive();
        assertThat(referenceArrays).isPositive();
        assertThat(repeating).isPositive();
    }
}
