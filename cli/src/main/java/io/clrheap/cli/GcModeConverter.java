package io.clrheap.cli;

import io.clrheap.emulator.scenario.GcMode;
import picocli.CommandLine;

/** {@code --gc-mode regions|segments}: an unknown mode is bad usage, naming the two there are. */
final class GcModeConverter implements CommandLine.ITypeConverter<GcMode> {

    @Override
    public GcMode convert(String value) {
        try {
            return GcMode.parse(value.trim().toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
