package io.clrheap.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MemoryRangeTest {

    @Test
    void containsComparesAddressesAsUnsigned() {
        MemoryRange high = new MemoryRange(0xffff800000000000L, 0x1000);
        assertThat(high.contains(0xffff800000000fffL)).isTrue();
        assertThat(high.contains(0xffff800000001000L)).isFalse();
        assertThat(high.contains(0x1000L)).isFalse();
        assertThat(high.contains(0xffff800000000ff8L, 8)).isTrue();
        assertThat(high.contains(0xffff800000000ff8L, 9)).isFalse();
    }

    @Test
    void rejectsARangeWrappingPastTheTopOfTheAddressSpace() {
        assertThatThrownBy(() -> new MemoryRange(0xfffffffffffff000L, 0x2000))
                .hasMessageContaining("0xfffffffffffff000");
    }

    @Test
    void printsAsAHalfOpenHexInterval() {
        assertThat(new MemoryRange(0x1000, 0x20)).hasToString("[0x1000, 0x1020)");
    }
}
