package io.clrheap.golden.graph;

import io.clrheap.memory.Memory;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference offsets of an object, read from its MethodTable's GC descriptor in memory as the GC's
 * go_through_object reads it (https://github.com/dotnet/runtime/blob/main/src/coreclr/gc/gcdesc.h): the series count
 * at MT - 8; N &gt; 0 series {seriessize, startoffset} from MT - 8 - 16 N (the lowest) to MT - 24 (the highest), each
 * covering [startoffset, startoffset + seriessize + objectSize); N &lt; 0: startoffset at MT - 16 and -N items
 * {nptrs, skip} (4 bytes each, 8 the item) from MT - 24 down, repeated from startoffset while below objectSize - 8. A test's own
 * decoder, written apart from the emulator's writer.
 */
final class GcDescDecoder {

    /** ContainsGCPointers (MTFlags). */
    private static final int CONTAINS_GC_POINTERS = 0x01000000;

    private GcDescDecoder() {
    }

    static List<Long> offsets(Memory memory, long mt, long objectSize) {
        List<Long> offsets = new ArrayList<>();
        if ((memory.readInt(mt) & CONTAINS_GC_POINTERS) == 0) {
            return offsets;
        }
        long count = memory.readLong(mt - 8);
        if (count > 0) {
            for (long series = mt - 8 - 16 * count; series < mt - 8; series += 16) {
                long size = memory.readLong(series);
                long start = memory.readLong(series + 8);
                for (long o = start; o < start + size + objectSize; o += 8) {
                    offsets.add(o);
                }
            }
            offsets.sort(Long::compare);
        } else {
            long o = memory.readLong(mt - 16);
            while (o < objectSize - 8) {
                for (long i = 0; i > count; i--) {
                    long item = mt - 24 + 8 * i;
                    long nptrs = memory.readU32(item);
                    long skip = memory.readU32(item + 4);
                    for (long p = 0; p < nptrs; p++, o += 8) {
                        offsets.add(o);
                    }
                    o += skip;
                }
            }
        }
        return offsets;
    }
}
