package io.clrheap.walker.source.bundle;

import io.clrheap.walker.source.DumpFiles;
import io.clrheap.walker.source.InProgressFiles;
import io.clrheap.walker.source.DumpFormatException;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.tukaani.xz.XZFormatException;
import org.tukaani.xz.XZIOException;
import org.tukaani.xz.XZInputStream;

/**
 * Streams a bundle's archive once: reads and checks the manifest (the first entry), then copies every other entry into
 * one temporary file, each at a page-aligned offset, checking its name, its size against the manifest and its SHA-256
 * digest. Pages of zeros are not written, so the file stays sparse where the process memory was zero.
 *
 * <p>Bounded: the manifest's total size must leave {@link DumpFiles#FREE_SPACE_MARGIN} free in the temporary folder
 * before the file is created; each entry's digest is checked as soon as its bytes end, and an entry whose data end
 * early or run on fails there. The temporary file is deleted on every failure and, through {@link InProgressFiles},
 * when the JVM is stopped while extracting.
 */
final class BundleExtractor {

    /** Entry data in the temporary file starts at multiples of this (a page), so zero pages become holes. */
    static final int ALIGN = 4096;
    /**
     * The most memory the xz decoder may use, in KiB: the -9 preset needs a 64 MiB dictionary (xz(1), "Memory usage");
     * a header that asks for more is corrupt or hostile.
     */
    private static final int XZ_MEMORY_LIMIT_KIB = 256 * 1024;
    /** Zero bytes accepted after the end-of-archive block: the second zero block and a writer's record padding. */
    static final long MAX_TRAILING = 64 << 10;
    /** What a tar entry may add to its data: a header, an extended header with its own header, and padding. */
    private static final long ENTRY_OVERHEAD = 3L * TarReader.BLOCK + TarReader.MAX_EXTENDED_HEADER;
    private static final int BUFFER = 1 << 20;
    private static final byte[] ZERO_PAGE = new byte[ALIGN];

    /** The extracted bundle: its manifest, the temporary file and each entry's offset in it. */
    record Extracted(BundleManifest manifest, Path file, long size, Map<String, Long> offsets) {
    }

    private final Path bundle;
    private final String source;
    private final BundleLimits limits;
    private final Path tempDir;
    private String current = BundleManifest.NAME;

    private BundleExtractor(Path bundle, BundleLimits limits, Path tempDir) {
        this.bundle = bundle;
        this.source = bundle.toString();
        this.limits = limits;
        this.tempDir = tempDir;
    }

    static Extracted extract(Path bundle, BundleLimits limits, Path tempDir) throws IOException {
        return new BundleExtractor(bundle, limits, tempDir).extract();
    }

    private Extracted extract() throws IOException {
        if (!Files.isRegularFile(bundle)) {
            throw new DumpFormatException(source + ": not a regular file");
        }
        Path temp = null;
        CappedInputStream capped = null;
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(bundle), 1 << 16)) {
            XZInputStream xz;
            try {
                xz = new XZInputStream(raw, XZ_MEMORY_LIMIT_KIB);
            } catch (XZFormatException | EOFException e) {
                throw new DumpFormatException(source + ": not an xz file (no xz stream header): a bundle is a .tar.xz", e);
            }
            capped = new CappedInputStream(xz, source, ENTRY_OVERHEAD + limits.maxManifestBytes());
            TarReader tar = new TarReader(capped, source);
            BundleManifest manifest = readManifest(tar);

            Map<String, Long> offsets = new LinkedHashMap<>();
            Map<String, BundleEntry> listed = new HashMap<>();
            long size = 0;
            // the manifest's padding, the end-of-archive block and the trailing zeros, then each entry with its headers
            long expected = capped.count() + 2L * TarReader.BLOCK + MAX_TRAILING + 1;
            for (BundleEntry e : manifest.entries()) {
                size = align(size);
                offsets.put(e.name(), size);
                listed.put(e.name(), e);
                size += e.size();
                expected += e.size() + ENTRY_OVERHEAD;
            }
            capped.cap(expected);

            DumpFiles.requireSpace(tempDir, size, "extract " + source + " into " + tempDir);
            temp = Files.createTempFile(tempDir, "clrheap-bundle-", ".data");
            InProgressFiles.register(temp); // deleted if the JVM is stopped while extracting
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                if (size > 0) {
                    channel.write(ByteBuffer.wrap(new byte[1]), size - 1); // the full length, sparse
                }
                Set<String> seen = new HashSet<>();
                byte[] buffer = new byte[BUFFER];
                for (TarHeader h; (h = tar.next()) != null; ) {
                    current = h.name();
                    BundleEntry entry = check(h, listed, seen);
                    copy(tar, entry, channel, offsets.get(entry.name()), buffer, temp);
                }
                current = "the end of the archive";
                for (BundleEntry e : manifest.entries()) {
                    if (!seen.contains(e.name())) {
                        throw new DumpFormatException(source + ": entry " + e.name()
                                + " is listed in the manifest but is not in the archive");
                    }
                }
                tar.finish(MAX_TRAILING);
            }
            return new Extracted(manifest, temp, size, Map.copyOf(offsets));
        } catch (DumpFormatException e) {
            deleteQuietly(temp, e);
            throw e;
        } catch (XZIOException | EOFException e) {
            DumpFormatException failure = new DumpFormatException(String.format(
                    "%s: corrupt or truncated xz data in entry %s: %s (after 0x%x decompressed bytes)", source, current,
                    e.getMessage() != null ? e.getMessage() : "the compressed stream ends too early",
                    capped == null ? 0 : capped.count()), e);
            deleteQuietly(temp, failure);
            throw failure;
        } catch (IOException | RuntimeException | Error e) {
            deleteQuietly(temp, e);
            throw e;
        }
    }

    private BundleManifest readManifest(TarReader tar) throws IOException {
        TarHeader first = tar.next();
        if (first == null) {
            throw new DumpFormatException(source + ": an empty archive: the first entry must be " + BundleManifest.NAME);
        }
        if (!first.name().equals(BundleManifest.NAME)) {
            throw new DumpFormatException(source + ": the first entry is '" + TarReader.printable(first.name()) + "'; it must be "
                    + BundleManifest.NAME);
        }
        if (first.size() > limits.maxManifestBytes()) {
            throw new DumpFormatException(String.format("%s: entry %s is %d bytes; the cap is %d (BundleLimits.maxManifestBytes)",
                    source, BundleManifest.NAME, first.size(), limits.maxManifestBytes()));
        }
        byte[] json = new byte[(int) first.size()];
        int done = 0;
        while (done < json.length) {
            int n = tar.read(json, done, json.length - done);
            done += n;
        }
        return ManifestReader.read(json, source, limits);
    }

    /** The manifest's entry for {@code h}, after checking its name, that it is new and listed, and its size. */
    private BundleEntry check(TarHeader h, Map<String, BundleEntry> listed, Set<String> seen) throws DumpFormatException {
        String name = h.name();
        String problem = EntryNames.problem(name);
        if (problem != null) {
            throw error(h, "'" + TarReader.printable(name) + "' is " + problem);
        }
        if (!seen.add(name) || name.equals(BundleManifest.NAME)) {
            throw error(h, "entry " + name + " appears twice in the archive");
        }
        BundleEntry entry = listed.get(name);
        if (entry == null) {
            throw error(h, "entry " + name + " is not listed in the manifest");
        }
        if (h.size() != entry.size()) {
            throw error(h, String.format("entry %s: its tar header says %d bytes, the manifest %d", name, h.size(), entry.size()));
        }
        return entry;
    }

    private void copy(TarReader tar, BundleEntry entry, FileChannel channel, long offset, byte[] buffer, Path temp)
            throws IOException {
        MessageDigest sha = sha256();
        long left = entry.size();
        long position = offset;
        while (left > 0) {
            int want = (int) Math.min(buffer.length, left);
            int got = 0;
            while (got < want) {
                got += tar.read(buffer, got, want - got); // throws at the end of the archive: never -1 here
            }
            sha.update(buffer, 0, got);
            try {
                writeNonZeroPages(channel, buffer, got, position);
            } catch (IOException e) {
                throw new IOException(String.format("%s: cannot extract entry %s to %s: %s", source, entry.name(), temp,
                        e.getMessage()), e);
            }
            position += got;
            left -= got;
        }
        String digest = java.util.HexFormat.of().formatHex(sha.digest());
        if (!digest.equals(entry.sha256())) {
            throw new DumpFormatException(String.format("%s: entry %s: the SHA-256 of its %d bytes is %s, the manifest records %s",
                    source, entry.name(), entry.size(), digest, entry.sha256()));
        }
    }

    /** Writes {@code buffer[0, length)} at {@code position}, leaving pages of zeros as holes. */
    private static void writeNonZeroPages(FileChannel channel, byte[] buffer, int length, long position) throws IOException {
        int i = 0;
        while (i < length) {
            while (i < length && isZero(buffer, i, Math.min(ALIGN, length - i))) {
                i += ALIGN;
            }
            if (i >= length) {
                return;
            }
            int start = i;
            while (i < length && !isZero(buffer, i, Math.min(ALIGN, length - i))) {
                i += ALIGN;
            }
            int end = Math.min(i, length);
            ByteBuffer run = ByteBuffer.wrap(buffer, start, end - start);
            while (run.hasRemaining()) {
                channel.write(run, position + start + (run.position() - start));
            }
        }
    }

    private static boolean isZero(byte[] buffer, int from, int length) {
        return Arrays.mismatch(buffer, from, from + length, ZERO_PAGE, 0, length) < 0;
    }

    private static long align(long offset) {
        return (offset + ALIGN - 1) & -ALIGN;
    }

    private DumpFormatException error(TarHeader h, String what) {
        return new DumpFormatException(String.format("%s: %s (tar header at offset 0x%x of the decompressed archive)", source,
                what, h.offset()));
    }

    private static void deleteQuietly(Path temp, Throwable failure) {
        InProgressFiles.deleteQuietly(temp, failure);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256 (MessageDigest spec)", e);
        }
    }
}
