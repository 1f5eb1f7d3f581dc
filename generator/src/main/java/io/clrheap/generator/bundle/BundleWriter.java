package io.clrheap.generator.bundle;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import io.clrheap.walker.source.PendingFile;
import io.clrheap.walker.source.TypeNameSidecar;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Writes an emulated process as a fixture bundle, {@code NAME.clrheap.tar.xz}: a POSIX tar archive compressed with
 * xz whose first entry is {@code manifest.json} (see {@link BundleManifest}), followed, sorted by name, by
 * {@code answer/...} (every file of the answer directory), {@code memory/<start>.bin} (one entry per range of memory
 * the process wrote, named by its start address in 16 hex digits) and {@code type-names.txt} ({@code 0x<mt> <name>}
 * lines sorted by MethodTable).
 *
 * <p>The same process, info and answer files give a byte-identical bundle: entries in a fixed order, every entry with
 * mtime 0, uid and gid 0, no user or group name, mode 0644, and a fixed xz preset. Memory is streamed from the
 * process's address space in 1 MiB pieces, twice (once for the digests the manifest lists first, once into the
 * archive); it is never held whole on the Java heap.
 */
public final class BundleWriter {

    /** The usual file name ending of a bundle. */
    public static final String SUFFIX = ".clrheap.tar.xz";
    /**
     * The xz preset. 3 (a 4 MiB dictionary, the fast match finder; xz(1) "Memory usage": 32 MiB to compress, 5 to
     * decompress) compresses process images about 8 times faster than the default 6, for 3 to 15% more bytes
     * (measured on the built-in scenarios).
     */
    public static final int XZ_PRESET = 3;
    /** Regular file, rw-r--r--. */
    static final int ENTRY_MODE = 0100644;
    /** Longest entry name in UTF-8 bytes; the walker's reader refuses longer ones. */
    static final int MAX_NAME_BYTES = 1024;
    static final String ANSWER_DIR = "answer/";
    static final String MEMORY_DIR = "memory/";
    static final String TYPE_NAMES = "type-names.txt";
    private static final int BUFFER = 1 << 20;

    private BundleWriter() {
    }

    /** Something that writes an entry's bytes, as many times as asked, always the same. */
    @FunctionalInterface
    private interface Content {
        void writeTo(OutputStream out, byte[] buffer) throws IOException;
    }

    private record Pending(String name, long size, Content content) {
    }

    /**
     * Writes the bundle of {@code process} to {@code out} (replaced if it exists; written under a temporary name
     * beside it and renamed, so {@code out} is never seen half written).
     *
     * @param process   the emulated process: its memory, runtime module mappings and type names
     * @param info      what the manifest says the bundle is
     * @param answerDir a directory whose regular files are stored, as they are, under {@code answer/} (sub-directories
     *                  kept as path components); may be empty
     * @throws IOException when the answer directory holds something other than regular files and directories, a
     *                     file changes while it is written, or the output cannot be written
     */
    public static void write(EmulatedRuntime process, BundleInfo info, Path answerDir, Path out) throws IOException {
        Objects.requireNonNull(process, "process");
        Objects.requireNonNull(info, "info");
        Objects.requireNonNull(answerDir, "answerDir");
        Objects.requireNonNull(out, "out");
        if (!Files.isDirectory(answerDir)) {
            throw new IOException("the answer directory " + answerDir + " is not a directory");
        }
        List<Pending> pending = new ArrayList<>();
        pending.addAll(answers(answerDir));
        Memory memory = process.memory();
        List<BundleRange> ranges = new ArrayList<>();
        for (MemoryRange r : process.memory().touchedRanges()) {
            String name = MEMORY_DIR + String.format("%016x.bin", r.start());
            ranges.add(new BundleRange(r.start(), r.length(), name));
            pending.add(new Pending(name, r.length(), (o, buffer) -> copyMemory(memory, r, o, buffer)));
        }
        byte[] typeNames = TypeNameSidecar.format(process.typeNames());
        pending.add(new Pending(TYPE_NAMES, typeNames.length, (o, buffer) -> o.write(typeNames)));
        pending.sort(Comparator.comparing(Pending::name));

        byte[] buffer = new byte[BUFFER];
        List<BundleEntry> entries = new ArrayList<>();
        for (Pending p : pending) {
            entries.add(new BundleEntry(p.name(), p.size(), digest(p, buffer)));
        }
        BundleManifest manifest = new BundleManifest(info, process.layout().primaryBuild().version(), process.mappings(),
                process.groundTruth().stacks(), ranges, entries);

        // written beside the target under a hidden temporary name and renamed into place when complete: a failed or
        // interrupted run (SIGINT, SIGTERM, a full disk) leaves no bundle
        PendingFile.write(out, partial -> {
            try (OutputStream file = Files.newOutputStream(partial);
                 XZOutputStream xz = new XZOutputStream(new BufferedOutputStream(file, BUFFER), new LZMA2Options(XZ_PRESET));
                 TarArchiveOutputStream tar = new TarArchiveOutputStream(xz, StandardCharsets.UTF_8.name())) {
                tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
                tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
                byte[] json = manifest.toJson();
                put(tar, new Pending(BundleManifest.NAME, json.length, (o, b) -> o.write(json)), buffer);
                for (Pending p : pending) {
                    put(tar, p, buffer);
                }
                tar.finish();
            }
        });
    }

    private static void put(TarArchiveOutputStream tar, Pending p, byte[] buffer) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(p.name());
        entry.setSize(p.size());
        entry.setModTime(0L);
        entry.setMode(ENTRY_MODE);
        entry.setUserId(0);
        entry.setGroupId(0);
        entry.setUserName("");
        entry.setGroupName("");
        tar.putArchiveEntry(entry);
        CountingOutputStream counted = new CountingOutputStream(tar);
        p.content().writeTo(counted, buffer);
        if (counted.count != p.size()) {
            throw new IOException(String.format("entry %s: %d bytes were written, %d expected (did a file change while the "
                    + "bundle was written?)", p.name(), counted.count, p.size()));
        }
        tar.closeArchiveEntry();
    }

    private static String digest(Pending p, byte[] buffer) throws IOException {
        MessageDigest sha = sha256();
        CountingOutputStream counted = new CountingOutputStream(OutputStream.nullOutputStream());
        try (DigestOutputStream out = new DigestOutputStream(counted, sha)) {
            p.content().writeTo(out, buffer);
        }
        if (counted.count != p.size()) {
            throw new IOException(String.format("entry %s: %d bytes read, %d expected (did a file change while the bundle "
                    + "was written?)", p.name(), counted.count, p.size()));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static void copyMemory(Memory memory, MemoryRange range, OutputStream out, byte[] buffer) throws IOException {
        long at = range.start();
        long left = range.length();
        while (left > 0) {
            int n = (int) Math.min(left, buffer.length);
            memory.read(at, buffer, 0, n);
            out.write(buffer, 0, n);
            at += n;
            left -= n;
        }
    }

    /** Every regular file under {@code dir}, as {@code answer/<relative path>}. */
    private static List<Pending> answers(Path dir) throws IOException {
        List<Pending> result = new ArrayList<>();
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = walk.filter(p -> !p.equals(dir)).toList();
        }
        for (Path p : paths) {
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException("answer file " + p + " is not a regular file (a link, device or pipe): a bundle holds "
                        + "regular files only");
            }
            List<String> parts = new ArrayList<>();
            for (Path part : dir.relativize(p)) {
                parts.add(part.toString());
            }
            String name = ANSWER_DIR + String.join("/", parts);
            requireSafeName(name, p);
            long size = Files.size(p);
            result.add(new Pending(name, size, (o, buffer) -> {
                try (InputStream in = Files.newInputStream(p)) {
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        o.write(buffer, 0, n);
                    }
                }
            }));
        }
        return result;
    }

    /** Refuses what the walker's reader would refuse, so that no bundle written here is unreadable. */
    private static void requireSafeName(String name, Path file) throws IOException {
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new IOException("answer file " + file + ": its entry name is longer than " + MAX_NAME_BYTES + " bytes");
        }
        for (String part : name.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..") || part.indexOf('\\') >= 0
                    || part.chars().anyMatch(Character::isISOControl)) {
                throw new IOException("answer file " + file + ": the entry name '" + name
                        + "' has an empty, '.' or '..' component, a backslash or a control character");
            }
        }
    }

    /** {@code 0x<mt> <name>} lines, sorted by MethodTable (unsigned), UTF-8. */

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256 (MessageDigest spec)", e);
        }
    }

    /** Counts what passes through; does not close the stream below (the tar entry stays open). */
    private static final class CountingOutputStream extends OutputStream {
        private final OutputStream out;
        private long count;

        CountingOutputStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }
}
