package io.clrheap.walker.source.bundle;

import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.elf.MappedFile;
import java.util.List;

/**
 * A bundle's {@code manifest.json}, checked: a known format version, well-formed addresses, names and digests, memory
 * ranges that do not overlap and whose entries have their lengths, every count and size within the reader's
 * {@link BundleLimits}.
 *
 * @param formatVersion  the bundle layout version (1)
 * @param scenario       the scenario the process was built from
 * @param seed           its seed
 * @param runtime        the runtime as written, e.g. {@code net8}
 * @param runtimeBuild   the runtime build, e.g. {@code 8.0.30}
 * @param gc             the GC flavour as written, e.g. {@code server}
 * @param clrheapVersion the clrheap version that wrote the bundle
 * @param mappedFiles    the runtime module's file mappings, in manifest order
 * @param threads        the threads with their registers and stack bases, in manifest order; empty when the manifest
 *                       has no {@code threads} (bundles written before it had)
 * @param memory         the memory ranges, sorted by address
 * @param entries        every entry but the manifest, in manifest order
 */
public record BundleManifest(int formatVersion, String scenario, long seed, String runtime, String runtimeBuild, String gc,
                             String clrheapVersion, List<MappedFile> mappedFiles, List<OsThread> threads, List<BundleMemoryRange> memory,
                             List<BundleEntry> entries) {

    /** The value of the manifest's {@code format} key. */
    public static final String FORMAT = "clrheap-bundle";
    /** The only format version this reader knows. */
    public static final int FORMAT_VERSION = 1;
    /** The manifest's entry name; it must be the archive's first entry. */
    public static final String NAME = "manifest.json";

    public BundleManifest {
        mappedFiles = List.copyOf(mappedFiles);
        threads = List.copyOf(threads);
        memory = List.copyOf(memory);
        entries = List.copyOf(entries);
    }

    /** The sum of every entry's size. */
    public long totalBytes() {
        return entries.stream().mapToLong(BundleEntry::size).sum();
    }
}
