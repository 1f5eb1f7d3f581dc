package io.clrheap.walker.explain;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The bytes around one read, 16 to a line, with the bytes of the read itself between bars:
 * {@code 7f3a10061028  00 00 00 00 00 00 00 00 |00 14 06 10 3a 7f 00 00| 08 00 ...}. Bytes the memory does not hold
 * are shown as {@code ??}, so an excerpt never invents a zero.
 *
 * @param start      the address of the first byte shown (16-aligned)
 * @param bytes      the bytes shown, 0..255, or -1 where the memory holds none
 * @param markStart  the first byte of the read
 * @param markLength how many bytes the read took
 */
public record HexExcerpt(long start, int[] bytes, long markStart, int markLength) {

    private static final int LINE = 16;
    /** A field longer than this is marked in full but shown only up to this many bytes past its start. */
    private static final int MAX_SHOWN = 64;

    public HexExcerpt {
        bytes = bytes.clone();
    }

    @Override
    public int[] bytes() {
        return bytes.clone();
    }

    /** The whole 16-byte lines holding {@code [address, address + length)} (at most {@value #MAX_SHOWN} bytes shown). */
    public static HexExcerpt of(Memory memory, long address, int length) {
        return around(memory, address, length, address, Math.min(length, MAX_SHOWN));
    }

    /** The 16-byte lines holding {@code [from, from + span)}, with {@code [markStart, markStart + markLength)} marked. */
    public static HexExcerpt around(Memory memory, long markStart, int markLength, long from, int span) {
        long first = Math.min(from, markStart) & -LINE;
        long end = Math.max(from + span, markStart + Math.min(markLength, MAX_SHOWN));
        long last = (end + LINE - 1) & -LINE;
        int[] bytes = new int[(int) (last - first)];
        for (int i = 0; i < bytes.length; i += 8) {
            readWord(memory, first + i, bytes, i);
        }
        return new HexExcerpt(first, bytes, markStart, markLength);
    }

    /** Eight bytes at once where the memory holds them all; else byte by byte, missing ones -1. */
    private static void readWord(Memory memory, long address, int[] into, int at) {
        if (memory.contains(address, 8)) {
            long word = memory.readLong(address);
            for (int b = 0; b < 8; b++) {
                into[at + b] = (int) (word >>> (8 * b)) & 0xff;
            }
            return;
        }
        for (int b = 0; b < 8; b++) {
            try {
                into[at + b] = memory.readU8(address + b);
            } catch (MissingMemoryException e) {
                into[at + b] = -1;
            }
        }
    }

    /** Whether the byte at {@code address} is one of the read's. */
    public boolean marked(long address) {
        return Long.compareUnsigned(address - markStart, markLength) < 0;
    }

    /** The bytes of the read that the excerpt shows, in address order (-1 for a missing one). */
    public int[] markedBytes() {
        long from = Math.max(start, markStart);
        long to = Math.min(start + bytes.length, markStart + markLength);
        int[] out = new int[(int) Math.max(0, to - from)];
        for (int i = 0; i < out.length; i++) {
            out[i] = bytes[(int) (from - start) + i];
        }
        return out;
    }

    /** The excerpt as text lines: the line's address, then its 16 bytes, the read's between bars. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        for (int line = 0; line < bytes.length; line += LINE) {
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%012x ", start + line));
            for (int i = line; i < Math.min(line + LINE, bytes.length); i++) {
                long address = start + i;
                boolean in = marked(address);
                boolean opens = in && (i == line || !marked(address - 1) || address == markStart);
                s.append(opens ? " |" : " ");
                s.append(bytes[i] < 0 ? "??" : String.format(Locale.ROOT, "%02x", bytes[i]));
                boolean closes = in && (i == Math.min(line + LINE, bytes.length) - 1 || !marked(address + 1));
                if (closes) {
                    s.append('|');
                }
            }
            lines.add(s.toString());
        }
        return lines;
    }
}
