package io.clrheap.emulator.metadata;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code #Strings} heap of ECMA-335 metadata (ECMA-335 II.24.2.3): UTF-8 strings, each ended by a NUL, the empty
 * string at offset 0; a string is stored once and referred to by its offset. Padded to 4 bytes as a stream must be
 * (II.24.2.2).
 */
public final class StringHeap {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Map<String, Integer> offsets = new HashMap<>();

    public StringHeap() {
        bytes.write(0);
        offsets.put("", 0);
    }

    /** The offset of {@code s}, adding it when new. */
    public int add(String s) {
        Integer known = offsets.get(s);
        if (known != null) {
            return known;
        }
        int at = bytes.size();
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        for (byte b : utf8) {
            if (b == 0) {
                throw new IllegalArgumentException("a metadata string holds no NUL: '" + s + "'");
            }
        }
        bytes.writeBytes(utf8);
        bytes.write(0);
        offsets.put(s, at);
        return at;
    }

    /** Whether offsets into it take 4 bytes (HeapSizes bit 0x01, II.24.2.6): 2^16 bytes or more. */
    public boolean wide() {
        return bytes.size() >= 1 << 16;
    }

    /** The heap as a stream: its bytes, padded with NULs to a multiple of 4. */
    public byte[] stream() {
        byte[] b = bytes.toByteArray();
        return java.util.Arrays.copyOf(b, (b.length + 3) & -4);
    }
}
