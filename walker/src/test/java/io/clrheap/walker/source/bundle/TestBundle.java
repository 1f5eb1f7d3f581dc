package io.clrheap.walker.source.bundle;

import io.clrheap.walker.source.elf.MappedFile;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Builds a bundle by hand for the reader's tests — the manifest written as text here, not by the generator — and lets
 * a test spoil any part of it: the manifest text, an entry's bytes or header, extra entries, what follows the archive.
 */
final class TestBundle {

    record Range(long start, long length, String entry) {
    }

    private final List<MappedFile> mappings = new ArrayList<>();
    private final List<Range> ranges = new ArrayList<>();
    /** Every entry but the manifest, in archive order. */
    private final Map<String, byte[]> entries = new LinkedHashMap<>();
    private UnaryOperator<String> manifestPatch = s -> s;
    private final Map<String, byte[]> tarBytes = new LinkedHashMap<>();
    private final Map<String, Long> tarSizes = new LinkedHashMap<>();
    private final List<String> omitted = new ArrayList<>();
    private Consumer<TestTar> extra = t -> { };
    private Consumer<TestTar> first = t -> { };
    private byte[] trailing = new byte[0];
    private int formatVersion = 1;

    /** A bundle with two memory ranges, a module mapping, type names and one answer file. */
    static TestBundle typical() {
        return new TestBundle()
                .mapping(new MappedFile(0x7f0000000000L, 0x7f0000002000L, 0, "/usr/lib/libcoreclr.so"))
                .memory(0x7f0000000000L, pattern(0x2000, 1))
                .memory(0x10000000L, pattern(0x1000, 2))
                .entry("type-names.txt", "0x7f0000001000 System.String\n0x7f0000001100 System.Object\n".getBytes(StandardCharsets.UTF_8))
                .entry("answer/objects.tsv", "0x10000000\t0x7f0000001000\t24\n".getBytes(StandardCharsets.UTF_8));
    }

    static byte[] pattern(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * 31 + seed * 7 + (i >>> 8));
        }
        return b;
    }

    static String memoryName(long start) {
        return String.format("memory/%016x.bin", start);
    }

    TestBundle mapping(MappedFile f) {
        mappings.add(f);
        return this;
    }

    TestBundle memory(long start, byte[] bytes) {
        String name = memoryName(start);
        ranges.add(new Range(start, bytes.length, name));
        entries.put(name, bytes);
        return this;
    }

    /** A memory range as the manifest lists it, with no entry of its own added. */
    TestBundle range(long start, long length, String entry) {
        ranges.add(new Range(start, length, entry));
        return this;
    }

    TestBundle entry(String name, byte[] bytes) {
        entries.put(name, bytes);
        return this;
    }

    /** Edits the manifest text before it is written (digests and sizes are computed from the true bytes first). */
    TestBundle patchManifest(UnaryOperator<String> patch) {
        UnaryOperator<String> before = manifestPatch;
        manifestPatch = s -> patch.apply(before.apply(s));
        return this;
    }

    /** Writes {@code bytes} into the archive for {@code name} instead of the bytes the manifest describes. */
    TestBundle tarBytes(String name, byte[] bytes) {
        tarBytes.put(name, bytes);
        return this;
    }

    /** Declares {@code size} in {@code name}'s tar header (the data written stays the true bytes). */
    TestBundle tarSize(String name, long size) {
        tarSizes.put(name, size);
        return this;
    }

    TestBundle omit(String name) {
        omitted.add(name);
        return this;
    }

    /** Entries written after the listed ones. */
    TestBundle extra(Consumer<TestTar> tar) {
        extra = tar;
        return this;
    }

    /** Entries written before the manifest. */
    TestBundle first(Consumer<TestTar> tar) {
        first = tar;
        return this;
    }

    /** Bytes after the end-of-archive marker and its padding. */
    TestBundle trailing(byte[] bytes) {
        trailing = bytes;
        return this;
    }

    TestBundle formatVersion(int version) {
        formatVersion = version;
        return this;
    }

    String manifest() {
        StringBuilder s = new StringBuilder();
        s.append("{\n  \"format\": \"clrheap-bundle\",\n  \"formatVersion\": ").append(formatVersion).append(",\n");
        s.append("  \"scenario\": \"test\",\n  \"seed\": 7,\n  \"runtime\": \"net8\",\n  \"runtimeBuild\": \"8.0.30\",\n");
        s.append("  \"gc\": \"server\",\n  \"clrheapVersion\": \"0.0.0-test\",\n  \"mappings\": [");
        for (int i = 0; i < mappings.size(); i++) {
            MappedFile f = mappings.get(i);
            s.append(i == 0 ? "\n" : ",\n").append(String.format(
                    "    {\"path\": \"%s\", \"start\": \"0x%x\", \"end\": \"0x%x\", \"fileOffset\": \"0x%x\", \"permissions\": \"r--p\"}",
                    f.path(), f.start(), f.end(), f.fileOffset()));
        }
        s.append("\n  ],\n  \"memory\": [");
        for (int i = 0; i < ranges.size(); i++) {
            Range r = ranges.get(i);
            s.append(i == 0 ? "\n" : ",\n").append(String.format("    {\"start\": \"0x%x\", \"length\": %d, \"entry\": \"%s\"}",
                    r.start(), r.length(), r.entry()));
        }
        s.append("\n  ],\n  \"entries\": [");
        int i = 0;
        for (var e : entries.entrySet()) {
            s.append(i++ == 0 ? "\n" : ",\n").append(String.format("    {\"name\": \"%s\", \"size\": %d, \"sha256\": \"%s\"}",
                    e.getKey(), e.getValue().length, sha256(e.getValue())));
        }
        s.append("\n  ]\n}\n");
        return manifestPatch.apply(s.toString());
    }

    /** The archive, uncompressed. */
    byte[] tar() {
        TestTar tar = new TestTar();
        first.accept(tar);
        tar.file("manifest.json", manifest().getBytes(StandardCharsets.UTF_8));
        for (var e : entries.entrySet()) {
            if (omitted.contains(e.getKey())) {
                continue;
            }
            byte[] bytes = tarBytes.getOrDefault(e.getKey(), e.getValue());
            tar.entry(e.getKey(), '0', bytes, tarSizes.getOrDefault(e.getKey(), (long) bytes.length));
        }
        extra.accept(tar);
        byte[] archive = tar.finish();
        byte[] all = new byte[archive.length + trailing.length];
        System.arraycopy(archive, 0, all, 0, archive.length);
        System.arraycopy(trailing, 0, all, archive.length, trailing.length);
        return all;
    }

    /** The bundle: the archive compressed with xz. */
    byte[] build() {
        return TestTar.xz(tar());
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
