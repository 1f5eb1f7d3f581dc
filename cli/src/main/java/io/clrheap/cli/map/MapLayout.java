package io.clrheap.cli.map;

import io.clrheap.walker.map.HeapMap;
import io.clrheap.walker.map.MapRegion;
import java.util.List;

/**
 * Where the page draws a map's regions: a bar per region as wide as its committed bytes at one scale for the whole
 * page, and the address strip. Computed here rather than in the page's script so that it is tested in Java and the
 * page only places what it is given.
 *
 * @param scale  the bars' scale
 * @param widths the width of each region's bar in pixels, in the map's region order
 * @param strip  the address strip
 */
public record MapLayout(BarScale scale, List<Integer> widths, AddressStrip strip) {

    public MapLayout {
        widths = List.copyOf(widths);
    }

    public static MapLayout of(HeapMap map) {
        List<Long> bytes = map.regions().stream().map(r -> BarScale.barBytes(r.region())).toList();
        BarScale scale = BarScale.fit(bytes);
        return new MapLayout(scale, bytes.stream().map(scale::width).toList(),
                AddressStrip.of(map.regions().stream().map(MapRegion::region).toList()));
    }
}
