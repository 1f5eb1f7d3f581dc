package io.clrheap.emulator.space;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import org.junit.jupiter.api.Test;

class AddressSpaceTest {

    private final AddressSpace space = new AddressSpace("test space");

    @Test
    void untouchedReservedMemoryReadsAsZeroAndCostsNothing() {
        space.reserve("gc reserve", 0x7e0000000000L, 1L << 40);
        assertThat(space.readLong(0x7e0000000000L + (1L << 39))).isZero();
        assertThat(space.allocatedBytes()).isZero();
    }

    @Test
    void writesReadBackLittleEndianAcrossChunkBoundaries() {
        space.reserve("heap", 0x10000, 0x40000);
        long edge = 0x20000 - 3;
        space.writeLong(edge, 0x1122334455667788L);
        assertThat(space.readLong(edge)).isEqualTo(0x1122334455667788L);
        assertThat(space.readByte(edge)).isEqualTo((byte) 0x88);
        assertThat(space.readInt(edge + 4)).isEqualTo(0x11223344);
        byte[] bytes = new byte[16];
        space.read(edge - 4, bytes, 0, 16);
        assertThat(bytes[4]).isEqualTo((byte) 0x88);
        assertThat(space.touchedRanges()).containsExactly(new MemoryRange(0x10000, 0x20000));
    }

    @Test
    void memoryOutsideEveryReservationIsNotMapped() {
        space.reserve("heap", 0x10000, 0x1000);
        assertThatThrownBy(() -> space.readLong(0x11000)).isInstanceOfSatisfying(MissingMemoryException.class,
                e -> assertThat(e.address()).isEqualTo(0x11000L));
        assertThatThrownBy(() -> space.writeInt(0xfffe, 1)).isInstanceOf(MissingMemoryException.class);
    }

    @Test
    void overlappingReservationsAreRefused() {
        space.reserve("a", 0x10000, 0x1000);
        assertThatThrownBy(() -> space.reserve("b", 0x10800, 0x1000)).hasMessageContaining("overlaps a");
    }

    @Test
    void touchedRangesAreCoalescedChunks() {
        space.reserve("heap", 0, 1L << 24);
        space.writeByte(5, (byte) 1);
        space.writeByte(0x10005, (byte) 1);
        space.writeByte(0x50000, (byte) 1);
        assertThat(space.touchedRanges()).containsExactly(new MemoryRange(0, 0x20000), new MemoryRange(0x50000, 0x10000));
        assertThat(space.allocatedBytes()).isEqualTo(3 * 0x10000);
    }

    @Test
    void threadsReadingDifferentChunksAtOnceSeeTheirOwnBytes() throws Exception {
        space.reserve("heap", 0, 64L << 16);
        for (int c = 0; c < 64; c++) {
            for (int w = 0; w < 8192; w += 512) {
                space.writeLong(((long) c << 16) + 8L * w, c);
            }
        }
        var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            var results = new java.util.ArrayList<java.util.concurrent.Future<Boolean>>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                results.add(pool.submit(() -> {
                    java.util.Random r = new java.util.Random(seed);
                    for (int i = 0; i < 200_000; i++) {
                        int c = r.nextInt(64);
                        if (space.readLong(((long) c << 16) + 8L * 512 * r.nextInt(16)) != c) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (var f : results) {
                assertThat(f.get()).isTrue();
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void chunksComeFromSeveralNativeSlabsAndStartZeroed() {
        long base = 0x7e0000000000L;
        space.reserve("gc reserve", base, 1L << 32);
        int chunks = (int) (NativeChunks.SLAB_SIZE / AddressSpace.CHUNK_SIZE) + 100; // more than one slab holds
        for (int i = 0; i < chunks; i++) {
            long a = base + (long) i * AddressSpace.CHUNK_SIZE * 3 + 8;
            assertThat(space.readLong(a)).isZero();
            space.writeLong(a, i);
            assertThat(space.readLong(a + 8)).isZero(); // the rest of a fresh chunk reads as zero
        }
        for (int i = 0; i < chunks; i++) {
            assertThat(space.readLong(base + (long) i * AddressSpace.CHUNK_SIZE * 3 + 8)).isEqualTo(i);
        }
        assertThat(space.allocatedBytes()).isEqualTo((long) chunks * AddressSpace.CHUNK_SIZE);
        assertThat(space.touchedRanges()).hasSize(chunks);
    }
}
