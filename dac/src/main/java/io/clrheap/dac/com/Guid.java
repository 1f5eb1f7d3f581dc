package io.clrheap.dac.com;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;

/**
 * A COM interface id as it lies in memory: {@code Data1} (u32), {@code Data2}, {@code Data3} (u16), {@code Data4} (8
 * bytes), little-endian. Written as {@code 5c552ab6-fc09-4cb3-8e36-22fa03c798b7}.
 */
public record Guid(int data1, short data2, short data3, long data4BigEndian) {

    /** The size of a GUID in memory. */
    public static final long SIZE = 16;

    /** Parses the registry form, e.g. {@code 436f00f2-b42a-4b9f-870c-e73db66ae930}. */
    public static Guid parse(String text) {
        String hex = text.replace("-", "");
        if (hex.length() != 32 || text.length() != 36) {
            throw new IllegalArgumentException("not a GUID: " + text);
        }
        return new Guid((int) Long.parseLong(hex.substring(0, 8), 16), (short) Integer.parseInt(hex.substring(8, 12), 16),
                (short) Integer.parseInt(hex.substring(12, 16), 16), Long.parseUnsignedLong(hex.substring(16), 16));
    }

    /** Reads the 16 bytes at {@code at}. */
    public static Guid read(MemorySegment at) {
        MemorySegment g = at.reinterpret(SIZE);
        long data4 = 0;
        for (int i = 0; i < 8; i++) {
            data4 = (data4 << 8) | (g.get(ValueLayout.JAVA_BYTE, 8 + i) & 0xff);
        }
        return new Guid(g.get(ValueLayout.JAVA_INT_UNALIGNED, 0), g.get(ValueLayout.JAVA_SHORT_UNALIGNED, 4),
                g.get(ValueLayout.JAVA_SHORT_UNALIGNED, 6), data4);
    }

    /** Writes the 16 bytes to {@code to}. */
    public void write(MemorySegment to) {
        to.set(ValueLayout.JAVA_INT_UNALIGNED, 0, data1);
        to.set(ValueLayout.JAVA_SHORT_UNALIGNED, 4, data2);
        to.set(ValueLayout.JAVA_SHORT_UNALIGNED, 6, data3);
        for (int i = 0; i < 8; i++) {
            to.set(ValueLayout.JAVA_BYTE, 8 + i, (byte) (data4BigEndian >>> (56 - 8 * i)));
        }
    }

    @Override
    public String toString() {
        String d4 = HexFormat.of().toHexDigits(data4BigEndian);
        return String.format("%08x-%04x-%04x-%s-%s", data1, data2 & 0xffff, data3 & 0xffff, d4.substring(0, 4), d4.substring(4));
    }
}
