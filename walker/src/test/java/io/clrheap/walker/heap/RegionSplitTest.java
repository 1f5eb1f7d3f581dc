package io.clrheap.walker.heap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A segments GC's ephemeral segment split where its generations start (the real 9.0.7 libclrgc.so dump's figures). */
class RegionSplitTest {

    private static final Region EPHEMERAL = new Region(0, SegmentKind.GEN2, 0x7fa524000000L, 0x7fa524001000L, 0x7fa524128048L, 0x7fa524128048L,
            0x7fa524132000L, 0x7fa534000000L, 0, true);

    @Test
    void gen2Gen1AndGen0EachRunFromTheirStart() {
        List<Region> pieces = EPHEMERAL.splitAtGenerations(0x7fa524024b58L, 0x7fa524024b70L).orElseThrow();
        assertThat(pieces).extracting(Region::kind).containsExactly(SegmentKind.GEN2, SegmentKind.GEN1, SegmentKind.GEN0);
        assertThat(pieces).extracting(Region::mem).containsExactly(0x7fa524001000L, 0x7fa524024b58L, 0x7fa524024b70L);
        assertThat(pieces).extracting(Region::end).containsExactly(0x7fa524024b58L, 0x7fa524024b70L, 0x7fa524128048L);
        assertThat(pieces).extracting(Region::ephemeral).containsExactly(false, false, true);
        assertThat(pieces).allMatch(r -> r.descriptor() == EPHEMERAL.descriptor());
    }

    @Test
    void noGen2PieceWhenGen1StartsTheSegment() {
        assertThat(EPHEMERAL.splitAtGenerations(EPHEMERAL.mem(), 0x7fa524024b70L).orElseThrow()).extracting(Region::kind)
                .containsExactly(SegmentKind.GEN1, SegmentKind.GEN0);
    }

    @Test
    void startsOutOfOrderSplitNothing() {
        assertThat(EPHEMERAL.splitAtGenerations(0x7fa524024b70L, 0x7fa524024b58L)).isEmpty();
        assertThat(EPHEMERAL.splitAtGenerations(0x7fa524024b58L, 0x7fa530000000L)).as("gen0 past the segment's end").isEmpty();
    }
}
