package io.clrheap.emulator.types;

import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.truth.ReferenceLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * The GC descriptor ({@code CGCDesc}) the runtime places just below a MethodTable whose objects hold references, as
 * gcdesc.h lays it out (https://github.com/dotnet/runtime/blob/main/src/coreclr/gc/gcdesc.h; docs/reference/object-graph.md):
 * the series count, a signed size_t, at MT - 8; for a count N &gt; 0, N {@link GcDescSeries} below it, the highest
 * (MT - 24) holding the lowest offset (the real dumps: {@code System.Func`1} has (seriessize -48, startoffset 8) at
 * MT - 24 and (-56, 40) at MT - 40); for a value-type array with references the count is -k: the highest series slot
 * holds {@code startoffset} at MT - 16 and the first of k {@link ValSerieItem}s at MT - 24, the next ones going down
 * 8 bytes each (the real dumps: {@code Entry[System.String,System.Object][]} has count -1, startoffset 16, item
 * {nptrs 2, skip 8}).
 *
 * @param series      the plain series, lowest offset first (empty when repeating)
 * @param repeatStart a value-type array's {@code startoffset}: its first element's first reference (0 when plain)
 * @param items       a value-type array's repeating items, in the order the GC applies them within an element (empty when plain)
 */
public record GcDescriptor(List<GcDescSeries> series, long repeatStart, List<ValSerieItem> items) implements ReferenceLayout {

    public GcDescriptor {
        series = List.copyOf(series);
        items = List.copyOf(items);
    }

    public boolean repeating() {
        return !items.isEmpty();
    }

    /** The descriptor of {@code type}'s objects, or null when they hold no references. */
    public static GcDescriptor of(TypeDef type) {
        if (!type.containsPointers()) {
            return null;
        }
        return switch (type.shape()) {
            // one series over every element: ObjectSize - BaseSize bytes from the first (the real dumps: System.Object[] has (-24, 16))
            case REFERENCE_ARRAY -> new GcDescriptor(List.of(new GcDescSeries(-type.baseSize(), TypeDef.SZ_ARRAY_DATA_OFFSET)), 0, List.of());
            case ARRAY -> repeating(type);
            default -> {
                List<GcDescSeries> series = new ArrayList<>();
                for (int[] run : runs(type.references())) {
                    series.add(new GcDescSeries(8L * run[1] - type.baseSize(), run[0]));
                }
                yield new GcDescriptor(series, 0, List.of());
            }
        };
    }

    /** A value-type array's: from the first element's first reference, each run of references then the bytes to the next run, wrapping to the next element. */
    private static GcDescriptor repeating(TypeDef type) {
        List<int[]> runs = runs(type.references());
        List<ValSerieItem> items = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            int end = runs.get(i)[0] + 8 * runs.get(i)[1];
            int next = i + 1 < runs.size() ? runs.get(i + 1)[0] : type.componentSize() + runs.get(0)[0];
            items.add(new ValSerieItem(runs.get(i)[1], next - end));
        }
        return new GcDescriptor(List.of(), TypeDef.SZ_ARRAY_DATA_OFFSET + runs.get(0)[0], items);
    }

    /** Ascending offsets as runs of adjacent words: {first offset, words}. */
    private static List<int[]> runs(List<Integer> offsets) {
        List<int[]> runs = new ArrayList<>();
        for (int offset : offsets) {
            int[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && last[0] + 8 * last[1] == offset) {
                last[1]++;
            } else {
                runs.add(new int[] {offset, 1});
            }
        }
        return runs;
    }

    /** The series count at MT - 8: N plain series, or -k repeating items. */
    public long count() {
        return repeating() ? -items.size() : series.size();
    }

    /**
     * The descriptor's bytes as they lie in memory, ending at the MethodTable: CGCDesc::ComputeSize (8 + 16 N) or
     * ComputeSizeRepeating (8 + 16 + 8 (k - 1)) bytes.
     */
    public byte[] bytes() {
        int size = repeating() ? 8 + 16 + 8 * (items.size() - 1) : 8 + 16 * series.size();
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(size - 8, count());
        if (repeating()) {
            b.putLong(size - 16, repeatStart);
            for (int i = 0; i < items.size(); i++) {
                // val_serie[-i]: the first item in the highest series' seriessize slot, the next ones below
                int at = size - 24 - 8 * i;
                b.putInt(at, items.get(i).nptrs());
                b.putInt(at + 4, items.get(i).skip());
            }
        } else {
            for (int i = 0; i < series.size(); i++) {
                // the highest series (MT - 24) holds the lowest offset
                int at = size - 24 - 16 * i;
                b.putLong(at, series.get(i).seriesSize());
                b.putLong(at + 8, series.get(i).startOffset());
            }
        }
        return b.array();
    }

    /**
     * The offsets of an object's references, ascending, for an object of {@code objectSize} bytes (BaseSize + count x
     * ComponentSize): what the GC's go_through_object visits (a repeating descriptor until objectSize - 8, plug_skew).
     */
    @Override
    public void forEachOffset(long objectSize, LongConsumer offset) {
        if (repeating()) {
            long at = repeatStart;
            while (at < objectSize - 8) {
                for (ValSerieItem item : items) {
                    for (int p = 0; p < item.nptrs(); p++, at += 8) {
                        offset.accept(at);
                    }
                    at += item.skip();
                }
            }
            return;
        }
        for (GcDescSeries s : series) {
            long end = s.startOffset() + s.seriesSize() + objectSize;
            for (long at = s.startOffset(); at < end; at += 8) {
                offset.accept(at);
            }
        }
    }
}
