package io.clrheap.cli;

import java.util.Locale;
import picocli.CommandLine;

/**
 * A size argument ({@code --min}, {@code --max}): decimal bytes as SOS's managed {@code dumpheap -min} reads them, hex
 * with {@code 0x} (SOS accepts both: docs/reference/walker-semantics.md §6.3), or with a binary suffix {@code k}, {@code m}
 * or {@code g} ({@code 10k} = 10,240 bytes; {@code 1.5m} is refused: sizes are whole bytes).
 */
final class ByteCountConverter implements CommandLine.ITypeConverter<Long> {

    @Override
    public Long convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT).replace("_", "").replace(",", "");
        try {
            if (v.startsWith("0x")) {
                return checked(value, Long.parseUnsignedLong(v.substring(2), 16));
            }
            int shift = 0;
            String digits = v.endsWith("b") ? v.substring(0, v.length() - 1) : v;
            if (!digits.isEmpty()) {
                switch (digits.charAt(digits.length() - 1)) {
                    case 'k' -> shift = 10;
                    case 'm' -> shift = 20;
                    case 'g' -> shift = 30;
                    default -> shift = 0;
                }
            }
            if (shift > 0) {
                digits = digits.substring(0, digits.length() - 1);
            }
            long n = Long.parseLong(digits);
            if (n < 0 || n > (Long.MAX_VALUE >> shift)) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a size of 0 bytes or more");
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a size: give bytes as 4096, 0x1000, 4k, 64m or 1g");
        }
    }

    private static long checked(String value, long n) {
        if (n < 0) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a size of 0 bytes or more");
        }
        return n;
    }
}
