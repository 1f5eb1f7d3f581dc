package io.clrheap.cli;

import io.clrheap.value.ByteCount;
import picocli.CommandLine;

/**
 * A size argument ({@code --min}, {@code --max}): decimal bytes as SOS's managed {@code dumpheap -min} reads them, hex
 * with {@code 0x} (SOS accepts both: docs/reference/walker-semantics.md §6.3), or with a binary suffix ({@link ByteCount}).
 */
final class ByteCountConverter implements CommandLine.ITypeConverter<Long> {

    @Override
    public Long convert(String value) {
        return ByteCount.parse(value).orElseThrow(() -> new CommandLine.TypeConversionException("'" + value
                + "' is not a size: give bytes as " + ByteCount.FORMS));
    }
}
