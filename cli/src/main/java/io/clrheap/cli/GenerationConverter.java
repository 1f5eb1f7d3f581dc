package io.clrheap.cli;

import io.clrheap.walker.heap.SegmentKind;
import picocli.CommandLine;

/** {@code --gen}: SOS's {@code dumpheap -gen} spellings or a generation number ({@link SegmentKind#named}). */
final class GenerationConverter implements CommandLine.ITypeConverter<SegmentKind> {

    @Override
    public SegmentKind convert(String value) {
        return SegmentKind.named(value).orElseThrow(() -> new CommandLine.TypeConversionException("'" + value
                + "' is no generation: give 0, 1, 2, loh (or 3), poh (or 4), or frozen (gen0, gen1, gen2, large, pinned and foh as SOS spells them)"));
    }
}
