package io.clrheap.value;

import java.util.Locale;
import java.util.OptionalLong;

/**
 * A size as a user types one: decimal bytes ({@code 4096}, as SOS's managed {@code dumpheap -min} reads them), hex
 * with {@code 0x} ({@code 0x1000}), or a number with a binary suffix {@code k}, {@code m} or {@code g}, any case, an
 * optional {@code b} after it ({@code 4k}, {@code 64MB}, {@code 1g}). One reading for every size clrheap takes: the
 * dumpheap filters' {@code --min}/{@code --max} and {@code $CLRHEAP_CACHE_MAX}.
 */
public final class ByteCount {

    /** How the forms are shown in messages. */
    public static final String FORMS = "4096, 0x1000, 4k, 64m or 1g";

    private ByteCount() {
    }

    /** {@code text} as bytes; empty when it is none of the forms, negative, or above {@link Long#MAX_VALUE}. */
    public static OptionalLong parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT).replace("_", "");
        try {
            if (t.startsWith("0x")) {
                long n = Long.parseUnsignedLong(t.substring(2), 16);
                return n < 0 ? OptionalLong.empty() : OptionalLong.of(n);
            }
            String digits = t.endsWith("b") ? t.substring(0, t.length() - 1) : t;
            int shift = digits.isEmpty() ? 0 : switch (digits.charAt(digits.length() - 1)) {
                case 'k' -> 10;
                case 'm' -> 20;
                case 'g' -> 30;
                default -> 0;
            };
            if (shift > 0) {
                digits = digits.substring(0, digits.length() - 1);
            }
            long n = Long.parseLong(digits);
            return n < 0 || n > Long.MAX_VALUE >> shift ? OptionalLong.empty() : OptionalLong.of(n << shift);
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
