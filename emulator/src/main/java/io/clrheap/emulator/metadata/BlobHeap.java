package io.clrheap.emulator.metadata;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * The {@code #Blob} heap of ECMA-335 metadata (II.24.2.4): blobs, each a compressed length (II.23.2) then its bytes,
 * the empty blob at offset 0; padded to 4 bytes as a stream must be (II.24.2.2).
 */
public final class BlobHeap {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    public BlobHeap() {
        bytes.write(0);
    }

    /** The offset of a new blob holding {@code blob}. */
    public int add(byte[] blob) {
        int at = bytes.size();
        bytes.writeBytes(compressed(blob.length));
        bytes.writeBytes(blob);
        return at;
    }

    /** Whether offsets into it take 4 bytes (HeapSizes bit 0x04, II.24.2.6). */
    public boolean wide() {
        return bytes.size() >= 1 << 16;
    }

    public byte[] stream() {
        byte[] b = bytes.toByteArray();
        return Arrays.copyOf(b, (b.length + 3) & -4);
    }

    /** An unsigned integer compressed as II.23.2 says: 1 byte below 0x80, 2 below 0x4000, else 4. */
    public static byte[] compressed(int v) {
        if (v < 0 || v > 0x1FFFFFFF) {
            throw new IllegalArgumentException("no compressed integer holds " + v);
        }
        if (v < 0x80) {
            return new byte[] {(byte) v};
        }
        if (v < 0x4000) {
            return new byte[] {(byte) (0x80 | (v >> 8)), (byte) v};
        }
        return new byte[] {(byte) (0xC0 | (v >> 24)), (byte) (v >> 16), (byte) (v >> 8), (byte) v};
    }
}
