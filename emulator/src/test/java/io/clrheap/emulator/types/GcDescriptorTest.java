package io.clrheap.emulator.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.scenario.TypeDef;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The GC descriptor bytes of each shape, decoded here as gcdesc.h says the GC reads them
 * (https://github.com/dotnet/runtime/blob/main/src/coreclr/gc/gcdesc.h, go_through_object), independently of
 * {@link GcDescriptor}: the offsets they give are the type's references, element by element for arrays.
 */
class GcDescriptorTest {

    @Test
    void aClassWithItsReferencesInOneRunHasOneSeries() {
        TypeDef t = TypeDef.ofClass("T.One", 48, 2);
        assertThat(count(t)).isEqualTo(1);
        assertThat(decode(t, 0)).isEqualTo(t.references());
    }

    @Test
    void referencesApartMakeSeveralSeriesTheHighestHoldingTheLowestOffset() {
        TypeDef t = TypeDef.ofClass("T.Several", 56, List.of(8, 16, 40), false);
        assertThat(count(t)).isEqualTo(runs(t.references()));
        assertThat(decode(t, 0)).isEqualTo(t.references());
        byte[] bytes = GcDescriptor.of(t).bytes();
        long highestStart = le(bytes).getLong(bytes.length - 16);
        assertThat(highestStart).isEqualTo((long) t.references().get(0));
    }

    @Test
    void aReferenceArrayHasOneSeriesOverItsElements() {
        TypeDef t = TypeDef.referenceArray("T.Ref[]");
        assertThat(count(t)).isEqualTo(1);
        for (int n : new int[] {0, 1, 7}) {
            assertThat(decode(t, n)).isEqualTo(IntStream.range(0, n).mapToObj(i -> TypeDef.SZ_ARRAY_DATA_OFFSET + 8 * i).toList());
        }
    }

    @Test
    void anArrayOfStructsWithReferencesRepeatsItsItemsOverEveryElement() {
        for (TypeDef t : List.of(TypeDef.structArray("T.A[]", 24, List.of(0, 8)), TypeDef.structArray("T.B[]", 24, List.of(0, 16)),
                TypeDef.structArray("T.C[]", 32, List.of(8)), TypeDef.structArray("T.D[]", 40, List.of(0, 8, 24, 32)))) {
            assertThat(count(t)).isEqualTo(-runs(t.references()));
            for (int n : new int[] {0, 1, 5}) {
                List<Integer> expected = new ArrayList<>();
                for (int e = 0; e < n; e++) {
                    for (int r : t.references()) {
                        expected.add(TypeDef.SZ_ARRAY_DATA_OFFSET + e * t.componentSize() + r);
                    }
                }
                assertThat(decode(t, n)).as(t.name() + " x " + n).isEqualTo(expected);
            }
        }
    }

    @Test
    void theWritersOwnOffsetsAgreeWithTheDecodedBytes() {
        for (TypeDef t : List.of(TypeDef.ofClass("T.Several", 56, List.of(8, 16, 40), false), TypeDef.referenceArray("T.Ref[]"),
                TypeDef.structArray("T.B[]", 24, List.of(0, 16)))) {
            for (int n : new int[] {0, 3}) {
                List<Integer> own = new ArrayList<>();
                GcDescriptor.of(t).forEachOffset(t.size(t.hasComponents() ? n : 0), o -> own.add((int) o));
                assertThat(own).isEqualTo(decode(t, t.hasComponents() ? n : 0));
            }
        }
    }

    @Test
    void aTypeWithoutReferencesHasNoDescriptor() {
        assertThat(GcDescriptor.of(TypeDef.INT_ARRAY)).isNull();
        assertThat(GcDescriptor.of(TypeDef.STRING)).isNull();
        assertThat(TypeDef.INT_ARRAY.flags() & TypeDef.CONTAINS_GC_POINTERS).isZero();
        assertThat(TypeDef.structArray("T.B[]", 24, List.of(0, 16)).flags() & TypeDef.CONTAINS_GC_POINTERS).isNotZero();
    }

    private static int runs(List<Integer> offsets) {
        int runs = 0;
        for (int i = 0; i < offsets.size(); i++) {
            if (i == 0 || offsets.get(i) != offsets.get(i - 1) + 8) {
                runs++;
            }
        }
        return runs;
    }

    private static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The series count at MT - 8. */
    private static long count(TypeDef t) {
        byte[] bytes = GcDescriptor.of(t).bytes();
        return le(bytes).getLong(bytes.length - 8);
    }

    /**
     * The reference offsets of an object of {@code t} with {@code n} components, from the descriptor's bytes alone
     * (placed so that the MethodTable is at the end of the array): go_through_object.
     */
    private static List<Integer> decode(TypeDef t, int n) {
        byte[] bytes = GcDescriptor.of(t).bytes();
        ByteBuffer b = le(bytes);
        int mt = bytes.length;
        long count = b.getLong(mt - 8);
        long size = t.baseSize() + (long) n * t.componentSize();
        List<Integer> offsets = new ArrayList<>();
        if (count > 0) {
            // lowest series first: CGCDesc::GetLowestSeries = MT - 8 - 16 N, each {seriessize, startoffset}
            List<long[]> series = new ArrayList<>();
            for (long i = count; i >= 1; i--) {
                int at = (int) (mt - 8 - 16 * i);
                series.add(new long[] {b.getLong(at), b.getLong(at + 8)});
            }
            series.sort((x, y) -> Long.compare(x[1], y[1]));
            for (long[] s : series) {
                for (long o = s[1]; o < s[1] + s[0] + size; o += 8) {
                    offsets.add((int) o);
                }
            }
        } else {
            long start = b.getLong(mt - 16);
            long o = start;
            while (o < size - 8) {
                for (int i = 0; i > count; i--) {
                    int at = mt - 24 + 8 * i; // val_serie + i, going down
                    int nptrs = b.getInt(at);
                    int skip = b.getInt(at + 4);
                    for (int p = 0; p < nptrs; p++, o += 8) {
                        offsets.add((int) o);
                    }
                    o += skip;
                }
            }
        }
        return offsets;
    }
}
