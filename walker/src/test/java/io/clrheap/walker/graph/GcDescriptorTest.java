package io.clrheap.walker.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.memory.Memory;
import io.clrheap.walker.source.RangeMemory;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The GC descriptor as gcdesc.h lays it out before a MethodTable, built byte by byte in each test: which slots it
 * names, and the descriptors it refuses (the count, a series or repeating items that cannot be the type's).
 */
class GcDescriptorTest {

    private static final long BASE = 0x10000;
    private static final long MT = BASE + 0x100;

    private final ByteBuffer bytes = ByteBuffer.allocate(0x200).order(ByteOrder.LITTLE_ENDIAN);

    private Memory memory() {
        return new RangeMemory("test", MemorySegment.ofArray(bytes.array()), List.of(new RangeMemory.Range(BASE, 0x200, 0x200, 0)));
    }

    private void putLong(long address, long value) {
        bytes.putLong((int) (address - BASE), value);
    }

    private void putInt(long address, int value) {
        bytes.putInt((int) (address - BASE), value);
    }

    private static List<Long> slots(GcDescriptor d, long size) {
        List<Long> slots = new ArrayList<>();
        d.forEachSlot(size, slots::add);
        return slots;
    }

    @Test
    void twoSeriesNameTheirSlotsLowestOffsetFirst() throws Exception {
        // BaseSize 48: fields at +8 and +32; series stored minus BaseSize, the highest (MT-24) with the lowest offset
        putLong(MT - 8, 2);
        putLong(MT - 24, 8 - 48);
        putLong(MT - 16, 8);
        putLong(MT - 40, 8 - 48);
        putLong(MT - 32, 32);
        GcDescriptor d = GcDescriptor.read(memory(), MT, 48, 0);
        assertThat(d.repeating()).isFalse();
        assertThat(d.check(48)).isNull();
        assertThat(slots(d, 48)).containsExactly(8L, 32L);
    }

    @Test
    void aReferenceArraysSeriesGrowsWithItsLength() throws Exception {
        putLong(MT - 8, 1);
        putLong(MT - 24, -24); // 0 - BaseSize: the elements, whatever their count
        putLong(MT - 16, 16);
        GcDescriptor d = GcDescriptor.read(memory(), MT, 24, 8);
        assertThat(slots(d, 24 + 8 * 3)).containsExactly(16L, 24L, 32L);
        assertThat(slots(d, 24)).isEmpty();
    }

    @Test
    void aRepeatingSeriesWalksEveryElement() throws Exception {
        // elements of 16 bytes: a reference, then 8 bytes of data; items {nptrs, skip} of 4 bytes each, item 0 at MT-24
        putLong(MT - 8, -1);
        putLong(MT - 16, 16);
        putInt(MT - 24, 1);
        putInt(MT - 20, 8);
        GcDescriptor d = GcDescriptor.read(memory(), MT, 24, 16);
        assertThat(d.repeating()).isTrue();
        assertThat(slots(d, 24 + 16 * 3)).containsExactly(16L, 32L, 48L);
    }

    @Test
    void aCountNoTypeOfThatSizeCouldHaveIsRefusedAtTheCount() {
        putLong(MT - 8, 1000);
        assertThatThrownBy(() -> GcDescriptor.read(memory(), MT, 48, 0)).isInstanceOfSatisfying(GcDescriptor.Malformed.class,
                e -> assertThat(e.address()).isEqualTo(MT - 8));
    }

    @Test
    void repeatingItemsThatDoNotCoverOneElementAreRefused() {
        putLong(MT - 8, -1);
        putLong(MT - 16, 16);
        putInt(MT - 24, 1);
        putInt(MT - 20, 0); // covers 8 bytes of a 16-byte element: the walk would drift
        assertThatThrownBy(() -> GcDescriptor.read(memory(), MT, 24, 16)).isInstanceOf(GcDescriptor.Malformed.class)
                .hasMessageContaining("covering 8 bytes per element, components of 16 bytes");
    }

    @Test
    void aSeriesRunningPastTheObjectIsSaidByCheckNotWalked() throws Exception {
        putLong(MT - 8, 1);
        putLong(MT - 24, 16 - 48); // two slots from +32: the second would be the next object's header
        putLong(MT - 16, 32);
        GcDescriptor d = GcDescriptor.read(memory(), MT, 48, 0);
        assertThat(d.check(48)).contains("covers [32, 48) of an object of 48 bytes");
    }
}
