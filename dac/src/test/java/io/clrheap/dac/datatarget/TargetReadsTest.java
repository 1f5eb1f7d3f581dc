package io.clrheap.dac.datatarget;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.memory.SegmentMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The DAC's reads answered from a memory source: present bytes are copied, missing ones are counted and never invented. */
class TargetReadsTest {

    private static final long BASE = 0x10000;

    private static TargetReads reads() {
        SegmentMemory memory = SegmentMemory.allocate(BASE, 0x2000, "test");
        for (int i = 0; i < 0x2000; i++) {
            memory.writeByte(BASE + i, (byte) i);
        }
        return new TargetReads(memory);
    }

    @Test
    void aReadInsideTheMemoryIsCopiedWhole() {
        TargetReads reads = reads();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(16);
            assertThat(reads.read(BASE + 0x10, buffer, 16)).isEqualTo(16);
            assertThat(buffer.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 0x10);
            assertThat(buffer.get(ValueLayout.JAVA_BYTE, 15)).isEqualTo((byte) 0x1f);
            assertThat(reads.failureCount()).isZero();
        }
    }

    @Test
    void aReadRunningPastTheEndReturnsThePresentPrefixAndIsRecorded() {
        TargetReads reads = reads();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(64);
            assertThat(reads.read(BASE + 0x2000 - 8, buffer, 64)).isEqualTo(8);
            assertThat(reads.failureCount()).isEqualTo(1);
            assertThat(reads.failures()).containsExactly(new TargetReads.FailedRead(BASE + 0x2000 - 8, 64, 8));
        }
    }

    @Test
    void aReadOfMissingMemoryReturnsNothing() {
        TargetReads reads = reads();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(8);
            assertThat(reads.read(0x5000, buffer, 8)).isZero();
            assertThat(reads.failures()).containsExactly(new TargetReads.FailedRead(0x5000, 8, 0));
        }
    }
}
