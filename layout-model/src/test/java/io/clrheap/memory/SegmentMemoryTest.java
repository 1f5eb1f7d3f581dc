package io.clrheap.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SegmentMemoryTest {

    private final SegmentMemory memory = SegmentMemory.allocate(0x7f0000001000L, 64, "test block");

    @Test
    void readsBackLittleEndianValuesAtTheirAddresses() {
        memory.writeLong(0x7f0000001008L, 0x1122334455667788L);
        assertThat(memory.readLong(0x7f0000001008L)).isEqualTo(0x1122334455667788L);
        assertThat(memory.readInt(0x7f0000001008L)).isEqualTo(0x55667788);
        assertThat(memory.readU16(0x7f000000100eL)).isEqualTo(0x1122);
        assertThat(memory.readU8(0x7f0000001008L)).isEqualTo(0x88);
        assertThat(memory.readU32(0x7f000000100cL)).isEqualTo(0x11223344L);
    }

    @Test
    void aReadBelowTheBlockNamesTheAddressAndTheSource() {
        assertThatThrownBy(() -> memory.readLong(0x7f0000000ff8L))
                .isInstanceOfSatisfying(MissingMemoryException.class, e -> {
                    assertThat(e.address()).isEqualTo(0x7f0000000ff8L);
                    assertThat(e.reason()).isEqualTo(MissingMemoryException.Reason.NOT_MAPPED);
                })
                .hasMessageContaining("0x7f0000000ff8").hasMessageContaining("test block");
    }

    @Test
    void aReadStraddlingTheEndIsMissingNotTruncated() {
        assertThatThrownBy(() -> memory.readLong(0x7f000000103cL)).isInstanceOf(MissingMemoryException.class);
        assertThat(memory.contains(0x7f000000103cL, 4)).isTrue();
        assertThat(memory.contains(0x7f000000103cL, 8)).isFalse();
    }

    @Test
    void listsItsOneRange() {
        assertThat(memory.ranges()).containsExactly(new MemoryRange(0x7f0000001000L, 64));
    }
}
