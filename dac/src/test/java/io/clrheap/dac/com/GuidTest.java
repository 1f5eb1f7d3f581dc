package io.clrheap.dac.com;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** Interface ids lie in memory as Data1 (u32 LE), Data2, Data3 (u16 LE), Data4 (8 bytes as written). */
class GuidTest {

    @Test
    void theSosInterfaceIdHasTheBytesTheDacCompares() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(16);
            Guid.parse("436f00f2-b42a-4b9f-870c-e73db66ae930").write(m);
            assertThat(m.toArray(ValueLayout.JAVA_BYTE)).containsExactly(
                    (byte) 0xf2, 0x00, 0x6f, 0x43, 0x2a, (byte) 0xb4, (byte) 0x9f, 0x4b,
                    (byte) 0x87, 0x0c, (byte) 0xe7, 0x3d, (byte) 0xb6, 0x6a, (byte) 0xe9, 0x30);
        }
    }

    @Test
    void writtenThenReadIsTheSameGuidAndPrintsAsParsed() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(16);
            Guid g = Guid.parse("5c552ab6-fc09-4cb3-8e36-22fa03c798b7");
            g.write(m);
            assertThat(Guid.read(m)).isEqualTo(g);
            assertThat(g.toString()).isEqualTo("5c552ab6-fc09-4cb3-8e36-22fa03c798b7");
        }
    }
}
