package io.clrheap.walker.graph;

import io.clrheap.memory.Memory;
import java.util.Arrays;

/**
 * Where an object's references are: the GC descriptor ({@code CGCDesc}) the runtime lays just before a MethodTable
 * whose flags have ContainsGCPointers (gcdesc.h, https://github.com/dotnet/runtime/blob/main/src/coreclr/gc/gcdesc.h;
 * docs/reference/object-graph.md):
 * <ul>
 * <li>the series count, a signed pointer-sized word at {@code MT - 8};</li>
 * <li>N &gt; 0: N series {@code {size_t seriessize; size_t startoffset;}} below it, the highest (lowest offset, walked
 *     first) at {@code MT - 24}; a series covers {@code [obj + startoffset, obj + startoffset + seriessize + objectSize)}
 *     (seriessize is stored minus BaseSize, so that arrays of references cover their elements whatever their length);</li>
 * <li>N &lt; 0 (an array of value types holding references): the highest series' {@code startoffset} at
 *     {@code MT - 16}, then -N items {@code {uint32 nptrs; uint32 skip;}} from {@code MT - 24} downwards, repeated from
 *     {@code obj + startoffset} while below {@code obj + objectSize - 8} (the next object's header).</li>
 * </ul>
 * Read once per MethodTable and checked against the type's BaseSize and component size before it is used; an object
 * it does not fit is refused by {@link #check}.
 */
public final class GcDescriptor {

    /** More series than this is no descriptor of a real type (a type of 64 KiB has at most 4096 separate series). */
    static final int MAX_SERIES = 4096;

    private final long[] starts;      // plain: each series' start offset; repeating: one entry
    private final long[] sizes;       // plain: each series' stored size (minus BaseSize)
    private final int[] pointers;     // repeating: nptrs per item
    private final int[] skips;        // repeating: bytes skipped after each item's pointers
    private final long elementBytes;  // repeating: bytes one element's items cover

    private GcDescriptor(long[] starts, long[] sizes, int[] pointers, int[] skips) {
        this.starts = starts;
        this.sizes = sizes;
        this.pointers = pointers;
        this.skips = skips;
        long element = 0;
        for (int i = 0; i < pointers.length; i++) {
            element += 8L * pointers[i] + skips[i];
        }
        this.elementBytes = element;
    }

    /** Thrown when the bytes before a MethodTable are no descriptor its type could have. */
    public static final class Malformed extends Exception {
        private final long address;

        Malformed(long address, String message) {
            super(message, null, false, false);
            this.address = address;
        }

        /** The address of the word that is wrong. */
        public long address() {
            return address;
        }
    }

    /**
     * Reads the descriptor of the MethodTable at {@code mt}.
     *
     * @param baseSize      the type's BaseSize
     * @param componentSize the type's component size (0 for a type without components)
     * @throws Malformed    when the series count or a series cannot be the type's
     */
    public static GcDescriptor read(Memory memory, long mt, long baseSize, int componentSize) throws Malformed {
        long count = memory.readLong(mt - 8);
        if (count > 0) {
            if (count > Math.min(MAX_SERIES, Math.max(1, baseSize / 8))) {
                throw new Malformed(mt - 8, String.format("GC descriptor of MethodTable 0x%x: %d series (BaseSize %d)", mt, count, baseSize));
            }
            int n = (int) count;
            long[] starts = new long[n];
            long[] sizes = new long[n];
            byte[] bytes = memory.readBytes(mt - 8 - 16L * n, 16 * n);
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < n; i++) {
                int at = 16 * (n - 1 - i); // i = 0: the highest series, just below the count
                sizes[i] = b.getLong(at);
                starts[i] = b.getLong(at + 8);
                if (starts[i] < 8 || (starts[i] & 7) != 0 || (sizes[i] & 7) != 0 || starts[i] > baseSize) {
                    throw new Malformed(mt - 8 - 16L * (i + 1), String.format("GC descriptor of MethodTable 0x%x: series %d at offset %d, size %d (BaseSize %d)",
                            mt, i, starts[i], sizes[i], baseSize));
                }
            }
            return new GcDescriptor(starts, sizes, new int[0], new int[0]);
        }
        if (count < 0) {
            long items = -count;
            if (componentSize == 0 || items > Math.max(1, componentSize / 8)) {
                throw new Malformed(mt - 8, String.format("GC descriptor of MethodTable 0x%x: %d repeating items for components of %d bytes",
                        mt, items, componentSize));
            }
            int n = (int) items;
            long start = memory.readLong(mt - 16);
            byte[] bytes = memory.readBytes(mt - 16 - 8L * n, 8 * n);
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            int[] pointers = new int[n];
            int[] skips = new int[n];
            for (int i = 0; i < n; i++) {
                int at = 8 * (n - 1 - i); // val_serie[0] at MT - 24, val_serie[-1] below it
                pointers[i] = b.getInt(at);
                skips[i] = b.getInt(at + 4);
            }
            GcDescriptor d = new GcDescriptor(new long[] {start}, new long[0], pointers, skips);
            if (start < 8 || (start & 7) != 0 || d.elementBytes != componentSize) {
                throw new Malformed(mt - 16, String.format("GC descriptor of MethodTable 0x%x: repeating series at offset %d covering %d bytes per element, components of %d bytes",
                        mt, start, d.elementBytes, componentSize));
            }
            return d;
        }
        throw new Malformed(mt - 8, String.format("GC descriptor of MethodTable 0x%x: no series, yet its flags say it holds references", mt));
    }

    /** Whether the series repeat over an array of value types. */
    public boolean repeating() {
        return pointers.length > 0;
    }

    /**
     * Null when the descriptor fits an object of {@code size} bytes (BaseSize + components), else what does not: a
     * series that would end past the object's last word.
     */
    public String check(long size) {
        if (!repeating()) {
            for (int i = 0; i < starts.length; i++) {
                long end = starts[i] + sizes[i] + size;
                if (end < starts[i] || end > size - 8) {
                    return String.format("series %d covers [%d, %d) of an object of %d bytes", i, starts[i], end, size);
                }
            }
        } else if (starts[0] > size - 8) {
            return String.format("the repeating series starts at %d, past an object of %d bytes", starts[0], size);
        }
        return null;
    }

    /**
     * Hands {@code sink} the offset of every reference slot of an object of {@code size} bytes, in the GC's order (the
     * highest series first: ascending offsets); {@link #check} must have accepted the size.
     */
    public void forEachSlot(long size, SlotSink sink) {
        if (!repeating()) {
            for (int i = 0; i < starts.length; i++) {
                long end = starts[i] + sizes[i] + size;
                for (long at = starts[i]; at < end; at += 8) {
                    sink.slot(at);
                }
            }
            return;
        }
        long end = size - 8; // the data ends where the next object's header starts (plug_skew)
        long at = starts[0];
        while (at < end) {
            for (int i = 0; i < pointers.length && at < end; i++) {
                long stop = at + 8L * pointers[i];
                for (; at < stop && at < end; at += 8) {
                    sink.slot(at);
                }
                at = stop + skips[i];
            }
        }
    }

    /** Receives reference slot offsets. */
    @FunctionalInterface
    public interface SlotSink {
        void slot(long offset);
    }

    @Override
    public String toString() {
        return repeating() ? "repeating from " + starts[0] + ": nptrs " + Arrays.toString(pointers) + " skip " + Arrays.toString(skips)
                : "series at " + Arrays.toString(starts) + " sizes " + Arrays.toString(sizes);
    }
}
