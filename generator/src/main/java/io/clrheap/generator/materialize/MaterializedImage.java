package io.clrheap.generator.materialize;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.module.ModuleMapping;
import io.clrheap.emulator.space.Reservation;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An emulated process written into a folder the materialize helper places it from:
 * <ul>
 *   <li>{@code plan.tsv}: every range, one line each ({@link PlacedRange});</li>
 *   <li>{@code memory.bin}: the bytes of the anonymous ranges, each at its page-aligned offset (the helper copies them
 *       into anonymous memory and deletes the file);</li>
 *   <li>the runtime module at its own path under the folder (e.g. {@code DIR/usr/share/dotnet/shared/Microsoft.NETCore.App/8.0.30/libcoreclr.so}):
 *       the module's bytes as the process holds them, file offset = address - base, so that a private mapping of it
 *       at the module's addresses reads what the emulated process reads, and /proc/PID/maps names the file;</li>
 *   <li>{@code type-names.txt}: {@code 0x<mt> <type name>} lines for {@code walk --names} (a real process keeps them in
 *       metadata, which the walker does not read).</li>
 * </ul>
 * The ranges are the memory the process wrote (what its ELF core holds), page aligned, and every mapping of the
 * runtime module (its untouched pages and .bss too, as a real process maps them).
 */
public record MaterializedImage(Path directory, List<PlacedRange> ranges, Path moduleFile, Path typeNames) {

    public static final String PLAN = "plan.tsv";
    public static final String MEMORY = "memory.bin";
    public static final String TYPE_NAMES = "type-names.txt";
    static final String PLAN_HEADER = "# clrheap materialize plan 1: start end permissions anon|file offset file name";
    private static final int BLOCK = 1 << 20;

    /** Bytes of memory the ranges hold. */
    public long bytes() {
        return ranges.stream().mapToLong(PlacedRange::length).sum();
    }

    /**
     * Writes {@code process} into {@code directory} (which must exist and be empty).
     *
     * @throws IllegalArgumentException for a Windows process (the helper is a Linux process; its module is an ELF image)
     */
    public static MaterializedImage write(EmulatedRuntime process, Path directory) throws IOException {
        if (process.platform() != Platform.LINUX) {
            throw new IllegalArgumentException("only a Linux process can be materialized (this one is built for " + process.platform() + ")");
        }
        Memory memory = process.memory();
        List<PlacedRange> ranges = new ArrayList<>();
        Map<String, Path> files = new LinkedHashMap<>();
        // the module's file-backed mappings: the bytes the process holds there, written into a file of the module's name
        for (ModuleMapping m : process.mappings()) {
            if (m.path().isEmpty()) {
                continue;
            }
            Path file = files.computeIfAbsent(m.path(), p -> directory.resolve(p.replaceFirst("^/+", "")));
            Files.createDirectories(file.getParent());
            try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                copy(memory, m.start(), m.end(), out, m.fileOffset());
            }
            ranges.add(new PlacedRange(m.start(), m.end(), m.permissions(), file, m.fileOffset(), fileName(m.path()) + " " + part(m.permissions())));
        }
        // anonymous memory: the module's own anonymous mappings (.bss), then every written range outside the module's mappings
        List<PlacedRange> anonymous = new ArrayList<>();
        String moduleName = process.mappings().stream().map(ModuleMapping::path).filter(p -> !p.isEmpty()).findFirst()
                .map(MaterializedImage::fileName).orElse("module");
        for (ModuleMapping m : process.mappings()) {
            if (m.path().isEmpty()) {
                anonymous.add(new PlacedRange(m.start(), m.end(), m.permissions(), null, 0, moduleName + " .bss"));
            }
        }
        List<long[]> module = process.mappings().stream().map(m -> new long[] {m.start(), m.end()}).toList();
        for (long[] piece : writtenPieces(process)) {
            for (long[] rest : subtract(piece[0], piece[1], module)) {
                anonymous.add(new PlacedRange(rest[0], rest[1], "rw-p", null, 0, nameOf(process, rest[0])));
            }
        }
        anonymous.sort(Comparator.comparing(PlacedRange::start, Long::compareUnsigned));
        long offset = 0;
        try (FileChannel out = FileChannel.open(directory.resolve(MEMORY), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (PlacedRange r : merge(anonymous)) {
                copy(memory, r.start(), r.end(), out, offset);
                ranges.add(new PlacedRange(r.start(), r.end(), r.permissions(), null, offset, r.name()));
                offset += r.length();
            }
        }
        ranges.sort(Comparator.comparing(PlacedRange::start, Long::compareUnsigned));
        try (Writer plan = Files.newBufferedWriter(directory.resolve(PLAN), StandardCharsets.UTF_8)) {
            plan.write(PLAN_HEADER + "\n");
            for (PlacedRange r : ranges) {
                plan.write(r.toLine() + "\n");
            }
        }
        Path names = directory.resolve(TYPE_NAMES);
        try (Writer out = Files.newBufferedWriter(names, StandardCharsets.UTF_8)) {
            TreeMap<Long, String> sorted = new TreeMap<>(Long::compareUnsigned);
            sorted.putAll(process.typeNames());
            for (var e : sorted.entrySet()) {
                out.write("0x" + Long.toHexString(e.getKey()) + " " + e.getValue() + "\n");
            }
        }
        Path moduleFile = files.isEmpty() ? null : files.values().iterator().next();
        return new MaterializedImage(directory, List.copyOf(ranges), moduleFile, names);
    }

    /** Reads the plan file of a folder {@link #write} wrote. */
    static List<PlacedRange> readPlan(Path directory) throws IOException {
        Path plan = directory.resolve(PLAN);
        if (!Files.isRegularFile(plan)) {
            throw new IOException("no materialize plan in " + directory + " (" + PLAN + " is missing)");
        }
        List<String> lines = Files.readAllLines(plan, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(PLAN_HEADER)) {
            throw new IOException(plan + ": not a materialize plan (its first line is not '" + PLAN_HEADER + "')");
        }
        List<PlacedRange> ranges = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                ranges.add(PlacedRange.parse(lines.get(i), plan, i + 1));
            }
        }
        return ranges;
    }

    /** The written memory, split where reservations meet (so each piece has one name), pages rounded outwards. */
    private static List<long[]> writtenPieces(EmulatedRuntime process) {
        List<long[]> pieces = new ArrayList<>();
        List<Reservation> reservations = process.memory().reservations();
        for (MemoryRange r : process.memory().touchedRanges()) {
            for (Reservation res : reservations) {
                long a = Long.compareUnsigned(res.start(), r.start()) > 0 ? res.start() : r.start();
                long b = Long.compareUnsigned(res.end(), r.end()) < 0 ? res.end() : r.end();
                if (Long.compareUnsigned(a, b) < 0) {
                    pieces.add(new long[] {a & -PlacedRange.PAGE, (b + PlacedRange.PAGE - 1) & -PlacedRange.PAGE});
                }
            }
        }
        return pieces;
    }

    private static String nameOf(EmulatedRuntime process, long address) {
        for (Reservation res : process.memory().reservations()) {
            if (res.contains(address, 1)) {
                return res.name();
            }
        }
        return "memory";
    }

    /** {@code [start, end)} minus the (disjoint) {@code holes}. */
    private static List<long[]> subtract(long start, long end, List<long[]> holes) {
        List<long[]> rest = new ArrayList<>();
        rest.add(new long[] {start, end});
        for (long[] h : holes) {
            List<long[]> next = new ArrayList<>();
            for (long[] r : rest) {
                if (Long.compareUnsigned(h[1], r[0]) <= 0 || Long.compareUnsigned(h[0], r[1]) >= 0) {
                    next.add(r);
                    continue;
                }
                if (Long.compareUnsigned(r[0], h[0]) < 0) {
                    next.add(new long[] {r[0], h[0]});
                }
                if (Long.compareUnsigned(h[1], r[1]) < 0) {
                    next.add(new long[] {h[1], r[1]});
                }
            }
            rest = next;
        }
        return rest;
    }

    /** Sorted ranges with overlaps (pages two rounded pieces share) joined; neighbours stay apart, each with its name. */
    private static List<PlacedRange> merge(List<PlacedRange> sorted) {
        List<PlacedRange> merged = new ArrayList<>();
        for (PlacedRange r : sorted) {
            PlacedRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && Long.compareUnsigned(r.start(), last.end()) < 0) {
                long end = Long.compareUnsigned(r.end(), last.end()) > 0 ? r.end() : last.end();
                String name = last.name().equals(r.name()) ? last.name() : last.name() + " + " + r.name();
                merged.set(merged.size() - 1, new PlacedRange(last.start(), end, last.permissions(), null, 0, name));
            } else {
                merged.add(r);
            }
        }
        return merged;
    }

    /**
     * Copies the process's bytes {@code [start, end)} to {@code out} at {@code position}: read in blocks; where a block is
     * not all mapped (a page rounded past a reservation), page by page, zeros for what the process does not have.
     */
    private static void copy(Memory memory, long start, long end, FileChannel out, long position) throws IOException {
        byte[] block = new byte[BLOCK];
        for (long a = start; Long.compareUnsigned(a, end) < 0; ) {
            int n = (int) Math.min(BLOCK, end - a);
            if (memory.contains(a, n)) {
                memory.read(a, block, 0, n);
            } else {
                java.util.Arrays.fill(block, 0, n, (byte) 0);
                for (int p = 0; p < n; p += (int) PlacedRange.PAGE) {
                    int len = (int) Math.min(PlacedRange.PAGE, n - p);
                    if (memory.contains(a + p, len)) {
                        memory.read(a + p, block, p, len);
                    }
                }
            }
            ByteBuffer buffer = ByteBuffer.wrap(block, 0, n);
            long at = position + (a - start);
            while (buffer.hasRemaining()) {
                at += out.write(buffer, at);
            }
            a += n;
        }
    }

    private static String fileName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static String part(String permissions) {
        return switch (permissions.substring(0, 3)) {
            case "r--" -> "headers";
            case "r-x" -> "text";
            case "rw-" -> "data";
            default -> permissions;
        };
    }
}
