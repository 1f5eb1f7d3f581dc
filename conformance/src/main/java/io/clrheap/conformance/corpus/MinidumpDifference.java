package io.clrheap.conformance.corpus;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How a Windows fixture's compressed minidump differs between the corpus and a fresh build: the compressed files'
 * sizes and first differing byte, and what a reviewer can act on — the minidumps' sizes, their first differing byte
 * and what it belongs to in the fresh one (a stream, or the memory at an address).
 *
 * @param presence          where the file is; when only in one, the sizes of the other are -1 and nothing else is known
 * @param committedSize     the committed {@code NAME.dmp.xz}'s bytes (-1 when missing)
 * @param freshSize         the fresh one's bytes (-1 when no longer written)
 * @param firstOffset       the first byte at which the compressed files differ (-1 when one is missing)
 * @param committedDumpSize the committed minidump's bytes, decompressed (-1 when unknown)
 * @param freshDumpSize     the fresh minidump's bytes (-1 when unknown)
 * @param firstDumpOffset   the first byte at which the minidumps differ (-1 when they are equal or the committed one cannot be decompressed)
 * @param where             what that byte belongs to, or why the committed minidump cannot be decompressed; empty when the minidumps are equal
 */
public record MinidumpDifference(Presence presence, long committedSize, long freshSize, long firstOffset, long committedDumpSize, long freshDumpSize,
                                 long firstDumpOffset, String where) implements DumpDifference {

    private static final int BUFFER = 1 << 16;

    /** How {@code committed} differs from {@code fresh} (both {@code NAME.dmp.xz}), when it does. */
    static Optional<MinidumpDifference> of(Path committed, Path fresh) throws IOException {
        if (!Files.isRegularFile(committed, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.of(new MinidumpDifference(Presence.ONLY_IN_BUILD, -1, Files.size(fresh), -1, -1, -1, -1, ""));
        }
        long offset = Files.mismatch(committed, fresh);
        if (offset < 0) {
            return Optional.empty();
        }
        long freshDumpSize = MinidumpXz.decompressedSize(fresh);
        long committedDumpSize;
        long dumpOffset;
        try {
            committedDumpSize = MinidumpXz.decompressedSize(committed);
            dumpOffset = mismatch(committed, fresh);
        } catch (IOException e) {
            return Optional.of(new MinidumpDifference(Presence.BOTH, Files.size(committed), Files.size(fresh), offset, -1, freshDumpSize, -1,
                    "the corpus's minidump cannot be decompressed: " + e.getMessage()));
        }
        return Optional.of(new MinidumpDifference(Presence.BOTH, Files.size(committed), Files.size(fresh), offset, committedDumpSize, freshDumpSize,
                dumpOffset, dumpOffset < 0 ? "" : where(fresh, dumpOffset)));
    }

    /** One line: {@code minidump 31,234 -> 31,240 bytes (xz), first difference at byte 1,200; decompressed 2,722,048 -> ...}. */
    @Override
    public String describe() {
        return switch (presence) {
            case ONLY_IN_BUILD -> "minidump: missing from the corpus";
            case ONLY_IN_CORPUS -> "minidump: in the corpus, no longer written";
            case BOTH -> String.format(Locale.ROOT, "minidump %,d -> %,d bytes (xz), first difference at byte %,d; %s", committedSize, freshSize, firstOffset,
                    decompressed());
        };
    }

    private String decompressed() {
        if (firstDumpOffset >= 0) {
            return String.format(Locale.ROOT, "decompressed %,d -> %,d bytes, first difference at byte %,d (0x%x): %s", committedDumpSize, freshDumpSize,
                    firstDumpOffset, firstDumpOffset, where);
        }
        return committedDumpSize < 0 ? where : "the same minidump, compressed otherwise";
    }

    /** The first byte at which the two minidumps differ, -1 when they are equal; a shorter one differs where it ends. */
    private static long mismatch(Path a, Path b) throws IOException {
        try (InputStream x = MinidumpXz.open(a); InputStream y = MinidumpXz.open(b)) {
            byte[] bx = new byte[BUFFER];
            byte[] by = new byte[BUFFER];
            for (long at = 0; ; ) {
                int nx = x.readNBytes(bx, 0, BUFFER);
                int ny = y.readNBytes(by, 0, BUFFER);
                int m = Arrays.mismatch(bx, 0, nx, by, 0, ny);
                if (m >= 0) {
                    return at + m;
                }
                if (nx < BUFFER) {
                    return -1; // both ended here
                }
                at += nx;
            }
        }
    }

    /** What the byte at {@code offset} of the fresh minidump belongs to. */
    private static String where(Path fresh, long offset) {
        try (InputStream in = MinidumpXz.open(fresh)) {
            return "in " + MinidumpMap.read(in).where(offset);
        } catch (IOException e) {
            return "not located (" + e.getMessage() + ")";
        }
    }
}
