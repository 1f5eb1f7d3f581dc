package io.clrheap.golden.live;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces one file inside a .NET single-file bundle (the apphost with the application appended): the new file is
 * appended, then a new bundle manifest (the old one with that file's entry repointed), then the header offset stored
 * just before the bundle signature in the host is repointed at the new manifest. The old file's bytes stay where they
 * were, unused.
 *
 * <p>Manifest v6 (.NET 6+): {@code u32 major, u32 minor, i32 fileCount, string bundleId, i64 depsJsonOffset,
 * i64 depsJsonSize, i64 runtimeConfigOffset, i64 runtimeConfigSize, u64 flags}, then per file {@code i64 offset,
 * i64 size, i64 compressedSize, u8 type, string relativePath}; strings are a 7-bit-encoded length then UTF-8.
 */
final class SingleFileBundle {

    /** SHA-256 of ".net core bundle": the host's marker, preceded by the manifest's file offset (i64). */
    static final byte[] SIGNATURE = {
            (byte) 0x8b, 0x12, 0x02, (byte) 0xb9, 0x6a, 0x61, 0x20, 0x38, 0x72, 0x7b, (byte) 0x93, 0x02, 0x14, (byte) 0xd7, (byte) 0xa0, 0x32,
            0x13, (byte) 0xf5, (byte) 0xb9, (byte) 0xe6, (byte) 0xef, (byte) 0xae, 0x33, 0x18, (byte) 0xee, 0x3b, 0x2d, (byte) 0xce, 0x24, (byte) 0xb3,
            0x6a, (byte) 0xae};

    /** Where the appended file starts: a page boundary, as the bundler aligns assemblies (to 16 or 4096). */
    static final int ALIGNMENT = 4096;

    private SingleFileBundle() {
    }

    /** Writes {@code out}: {@code bundle} with its file {@code relativePath} replaced by {@code replacement}. */
    static void replaceFile(Path bundle, String relativePath, byte[] replacement, Path out) throws IOException {
        Files.copy(bundle, out, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel channel = FileChannel.open(out, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long length = channel.size();
            long signature = findSignature(channel);
            long headerOffset = readLong(channel, signature - 8);
            if (headerOffset <= 0 || headerOffset >= length) {
                throw new IOException(bundle + ": not a single-file bundle (header offset " + headerOffset + ")");
            }
            ByteBuffer manifest = ByteBuffer.allocate(Math.toIntExact(length - headerOffset)).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(manifest, headerOffset);
            manifest.flip();
            int major = manifest.getInt();
            manifest.getInt(); // minor
            if (major < 6) {
                throw new IOException(bundle + ": bundle manifest version " + major + ", this rewrite knows 6 (.NET 6+)");
            }
            int count = manifest.getInt();
            readString(manifest); // bundle id
            manifest.position(manifest.position() + 5 * 8);
            long newOffset = (length + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
            boolean found = false;
            for (int i = 0; i < count; i++) {
                int entry = manifest.position();
                manifest.position(entry + 3 * 8 + 1);
                String name = readString(manifest);
                if (name.equals(relativePath)) {
                    manifest.putLong(entry, newOffset).putLong(entry + 8, replacement.length).putLong(entry + 16, 0);
                    found = true;
                }
            }
            if (!found) {
                throw new IOException(bundle + ": the bundle has no file " + relativePath);
            }
            manifest.position(0);
            channel.write(ByteBuffer.wrap(replacement), newOffset); // the gap before it reads as zeros
            long newHeader = newOffset + replacement.length;
            channel.write(manifest, newHeader);
            ByteBuffer offset = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, newHeader);
            channel.write(offset, signature - 8);
        }
    }

    /**
     * Where the signature is, read in chunks: a mapping would outlive this method until a GC and, shared on a file
     * open for writing, make exec fail with ETXTBSY ("Text file busy").
     */
    private static long findSignature(FileChannel channel) throws IOException {
        int chunk = 1 << 20;
        ByteBuffer buffer = ByteBuffer.allocate(chunk + SIGNATURE.length);
        long length = channel.size();
        for (long base = 0; base < length; base += chunk) {
            buffer.clear();
            int read = 0;
            while (buffer.hasRemaining()) {
                int n = channel.read(buffer, base + read);
                if (n < 0) {
                    break;
                }
                read += n;
            }
            byte[] bytes = buffer.array();
            int limit = Math.min(read, chunk + SIGNATURE.length) - SIGNATURE.length;
            outer:
            for (int i = 0; i <= limit && i < chunk; i++) {
                if (bytes[i] != SIGNATURE[0]) {
                    continue;
                }
                for (int j = 1; j < SIGNATURE.length; j++) {
                    if (bytes[i + j] != SIGNATURE[j]) {
                        continue outer;
                    }
                }
                if (base + i >= 8) {
                    return base + i;
                }
            }
        }
        throw new IOException("no single-file bundle signature in the host");
    }

    private static long readLong(FileChannel channel, long at) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        channel.read(buffer, at);
        return buffer.getLong(0);
    }

    private static String readString(ByteBuffer buffer) {
        int length = 0;
        for (int shift = 0; ; shift += 7) {
            int b = buffer.get() & 0xFF;
            length |= (b & 0x7F) << shift;
            if (b < 0x80) {
                break;
            }
        }
        byte[] bytes = new byte[length];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
