package io.clrheap.cli.map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.map.HeapMap;
import io.clrheap.walker.map.MapLimits;
import io.clrheap.walker.map.MapRegion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link MapLayout}: bars as wide as their regions' committed bytes at one scale, and regions placed on the address strip. */
class MapLayoutTest {

    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;
    private static final long BASE = 0x7e20_0000_0000L;

    @TempDir
    Path dir;

    private static Region region(SegmentKind kind, long start, long used, long committed, long reserved) {
        long mem = start + 0x28;
        return new Region(0, kind, start - 0x1000, mem, mem + used, mem + used, mem + committed, mem + reserved, 0, false);
    }

    @Test
    void theScaleIsTheFinestPowerOfTwoThatFitsTheLargestRegionInARow() {
        BarScale scale = BarScale.fit(List.of(54 * KIB, 444 * KIB));
        // 444 KiB in at most 960 px: 512 B per pixel gives 888 px; 256 B would give 1,776
        assertThat(scale.bytesPerPixel()).isEqualTo(512);
        assertThat(scale.label()).isEqualTo("1 px = 512 B");
        assertThat(scale.width(444 * KIB)).isEqualTo(888);
        assertThat(scale.width(54 * KIB)).isEqualTo(108);
        assertThat(scale.width(444 * KIB) / (double) scale.width(54 * KIB)).isCloseTo(444 / 54.0, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void manyRegionsTakeACoarserScaleSoThatTheyFitInAFewRows() {
        List<Long> sizes = new ArrayList<>();
        for (int i = 0; i < 110; i++) {
            sizes.add(4 * MIB);
        }
        sizes.add(32 * MIB);
        BarScale scale = BarScale.fit(sizes);
        // 472 MiB in at most 12 rows of 960 px: 64 KiB per pixel (7,552 px) rather than 32 KiB (15,104 px)
        assertThat(scale.bytesPerPixel()).isEqualTo(64 * KIB);
        assertThat(scale.label()).isEqualTo("1 px = 64 KiB");
        assertThat(scale.width(4 * MIB)).isEqualTo(64);
        assertThat(scale.width(32 * MIB)).isEqualTo(512);
        long total = sizes.stream().mapToLong(scale::width).sum();
        assertThat(total).isLessThanOrEqualTo((long) scale.rowWidth() * scale.maxRows());
    }

    @Test
    void aTinyRegionKeepsTheMinimumWidthAndWidthsRoundToTheNearestPixel() {
        BarScale scale = new BarScale(64 * KIB, 6, 960, 12);
        assertThat(scale.width(0)).isEqualTo(6);
        assertThat(scale.width(24)).isEqualTo(6);
        assertThat(scale.width(6 * 64 * KIB)).isEqualTo(6);
        assertThat(scale.width(10 * 64 * KIB + 32 * KIB - 1)).isEqualTo(10);
        assertThat(scale.width(10 * 64 * KIB + 32 * KIB)).isEqualTo(11);
        assertThat(BarScale.fit(List.of()).bytesPerPixel()).isEqualTo(BarScale.FINEST);
        assertThat(BarScale.size(2 * MIB)).isEqualTo("2 MiB");
        assertThatThrownBy(() -> new BarScale(48, 6, 960, 12)).hasMessageContaining("a power of two");
    }

    @Test
    void aBarIsTheRegionsCommittedBytesAtLeastItsAllocatedOnes() {
        assertThat(BarScale.barBytes(region(SegmentKind.GEN1, BASE, 53 * KIB, 131 * KIB, 4 * MIB))).isEqualTo(131 * KIB);
        assertThat(BarScale.barBytes(region(SegmentKind.GEN0, BASE, 200 * KIB, 131 * KIB, 4 * MIB))).isEqualTo(200 * KIB);
    }

    @Test
    void theStripPlacesEveryRegionAtItsAddressWithSmallGapsToScale() {
        List<Region> regions = List.of(
                region(SegmentKind.GEN2, BASE, MIB, MIB, 4 * MIB),
                region(SegmentKind.GEN1, BASE + 4 * MIB, MIB, MIB, 4 * MIB),
                // a 4 MiB hole, then LOH
                region(SegmentKind.LOH, BASE + 12 * MIB, MIB, MIB, 4 * MIB));
        AddressStrip strip = AddressStrip.of(regions, 1600);
        assertThat(strip.breaks()).isEmpty();
        assertThat(strip.lowest()).isEqualTo(BASE + 0x28);
        assertThat(strip.highest()).isEqualTo(BASE + 16 * MIB + 0x28);
        // 16 MiB over 1,600 px: 100 px per MiB
        assertThat(strip.marks()).extracting(StripMark::x).containsExactly(0, 400, 1200);
        assertThat(strip.marks()).extracting(StripMark::width).containsExactly(400, 400, 400);
        assertThat(strip.marks()).extracting(StripMark::mem).containsExactly(BASE + 0x28, BASE + 4 * MIB + 0x28, BASE + 12 * MIB + 0x28);
    }

    @Test
    void aGapWiderThanAllTheRegionsBecomesABreak() {
        long far = BASE + 0x1_1800_0000_00L;
        List<Region> regions = List.of(
                region(SegmentKind.FROZEN, far, 256 * KIB, 320 * KIB, 4 * MIB),
                region(SegmentKind.GEN2, BASE, MIB, MIB, 4 * MIB),
                region(SegmentKind.GEN0, BASE + 4 * MIB, MIB, MIB, 4 * MIB));
        AddressStrip strip = AddressStrip.of(regions, 1000);
        assertThat(strip.breaks()).hasSize(1);
        StripBreak gap = strip.breaks().getFirst();
        assertThat(gap.from()).isEqualTo(BASE + 8 * MIB + 0x28);
        assertThat(gap.to()).isEqualTo(far + 0x28);
        assertThat(gap.width()).isEqualTo(AddressStrip.BREAK_WIDTH);
        // 12 MiB to scale over 1,000 - 16 px: 82 px per MiB; the break after the second region, the frozen segment after it
        assertThat(strip.marks()).extracting(StripMark::mem).containsExactly(BASE + 0x28, BASE + 4 * MIB + 0x28, far + 0x28);
        assertThat(strip.marks()).extracting(StripMark::x).containsExactly(0, 328, 672);
        assertThat(gap.x()).isEqualTo(656);
        assertThat(strip.marks().getLast().x() + strip.marks().getLast().width()).isEqualTo(1000);
    }

    @Test
    void marksAreInAddressOrderAndNeverNarrowerThanTheMinimum() {
        List<Region> regions = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            regions.add(region(i % 7 == 0 ? SegmentKind.LOH : SegmentKind.GEN0, BASE + i * 4 * MIB, KIB, 64 * KIB, i % 7 == 0 ? 32 * MIB : 4 * MIB));
        }
        AddressStrip strip = AddressStrip.of(regions.reversed());
        assertThat(strip.marks()).hasSize(300);
        for (int i = 1; i < strip.marks().size(); i++) {
            assertThat(strip.marks().get(i).mem()).isGreaterThan(strip.marks().get(i - 1).mem());
            assertThat(strip.marks().get(i).x()).isGreaterThanOrEqualTo(strip.marks().get(i - 1).x());
        }
        assertThat(strip.marks()).allSatisfy(m -> {
            assertThat(m.width()).isGreaterThanOrEqualTo(AddressStrip.MIN_MARK);
            assertThat(m.x() + m.width()).isLessThanOrEqualTo(strip.width());
        });
    }

    @Test
    void theLayoutOfAMapHasABarPerRegionAndAMarkPerRegion() throws Exception {
        HeapMap map = MapFixture.generate("every-edge", dir).map(MapLimits.DEFAULT);
        MapLayout layout = MapLayout.of(map);
        assertThat(layout.widths()).hasSize(map.regions().size());
        assertThat(layout.strip().marks()).hasSize(map.regions().size());
        for (int i = 0; i < map.regions().size(); i++) {
            MapRegion r = map.regions().get(i);
            long bytes = BarScale.barBytes(r.region());
            int width = layout.widths().get(i);
            assertThat(width).isLessThanOrEqualTo(layout.scale().rowWidth());
            assertThat(width).isEqualTo(Math.max(layout.scale().minWidth(), Math.round(bytes / (double) layout.scale().bytesPerPixel())));
        }
    }
}
