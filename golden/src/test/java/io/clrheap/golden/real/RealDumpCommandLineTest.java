package io.clrheap.golden.real;

import static io.clrheap.cli.ClrheapCommand.run;

import io.clrheap.cli.ClrheapCommand.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.source.elf.MappedFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** {@code clrheap walk} on the real dumps, as a user runs it. */
class RealDumpCommandLineTest {

    static final List<String> WALKABLE = RealDump.WALKABLE;

    /** Set -Dclrheap.golden.update=true to rewrite the expected outputs (then review the diff). */
    private static final boolean UPDATE = Boolean.getBoolean("clrheap.golden.update");

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void walkStatEqualsTheCommittedExpectedOutput(String name) throws IOException {
        Path dump = RealDump.root().resolve(name).resolve("core.xz");
        Outcome r = run("walk", dump.toString(), "--stat", "--names", RealDump.root().resolve(name).resolve("live-objects.txt").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        Path expected = RealDump.root().resolve(name).resolve("expected").resolve("dumpheap-stat.txt");
        if (UPDATE) {
            Files.createDirectories(expected.getParent());
            Files.writeString(expected, r.out(), StandardCharsets.UTF_8);
        }
        assertThat(r.out()).isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
        assertThat(r.out()).startsWith("Statistics:\n").containsPattern("\\n *[0-9a-f]{12} +[0-9,]+ +[0-9,]+ Free\\n")
                .containsPattern("\\nTotal [0-9,]+ objects, [0-9,]+ bytes\\n$");
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void theStatTotalsAreTheSumOfTheObjectList(String name) {
        Path dump = RealDump.root().resolve(name).resolve("core.xz");
        Outcome objects = run("walk", dump.toString(), "--objects", "-q");
        List<String> rows = objects.out().lines().skip(1).toList();
        long bytes = rows.stream().mapToLong(l -> Long.parseLong(l.split("\t")[2])).sum();
        Outcome stat = run("walk", dump.toString(), "--stat", "-q", "--parallel", "3");
        assertThat(stat.out()).endsWith(String.format("Total %,d objects, %,d bytes%n", rows.size(), bytes));
        assertThat(objects.out()).startsWith("address\tmt\tsize\tgeneration\theap\tkind\ttype\n");
    }

    @Test
    void everyReportHasAJsonFormThatAgreesWithTheWalk() throws IOException {
        RealDump d = RealDump.of("net10-small");
        String dump = RealDump.root().resolve("net10-small/core.xz").toString();
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var stat = json.readTree(run("walk", dump, "--stat", "--json", "-q").out());
        assertThat(stat.get("objects").asLong()).isEqualTo(d.walked.size());
        assertThat(stat.get("problemCount").asLong()).isZero();
        assertThat(stat.get("problems")).isEmpty();
        var objects = json.readTree(run("walk", dump, "--objects", "--json", "-q").out());
        assertThat(objects.size()).isEqualTo(d.walked.size());
        var first = objects.get(0);
        assertThat(d.walked.get(RealDump.hex(first.get("address").asText())).size()).isEqualTo(first.get("size").asLong());
        var eeheap = json.readTree(run("walk", dump, "--eeheap", "--json", "-q").out());
        assertThat(eeheap.get("server").asBoolean()).isFalse();
        assertThat(eeheap.get("heaps").get(0).get("segments").size()).isEqualTo(d.heap.regionsByAddress().size());
        var handles = json.readTree(run("walk", dump, "--handles", "--json", "-q").out());
        assertThat(handles.get("counts").get("Strong").asInt()).isPositive();
    }

    @Test
    void theEmptyStringIsReportedAt22Bytes() {
        Outcome r = run("walk", RealDump.root().resolve("net9-withheap/core.xz").toString(), "--objects", "-q");
        assertThat(r.out()).containsPattern("\\t22\\t");
    }

    @Test
    void eeheapListsEveryRegionAsSosDoes() {
        Outcome r = run("walk", RealDump.root().resolve("net8-svr/core.xz").toString(), "--eeheap");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Number of GC Heaps: 2", "Heap 0 (", "Heap 1 (", "Small object heap", "generation 0:", "NonGC heap",
                "Large object heap", "Pinned object heap", "GC Allocated Heap Size:    Size: 0x", "GC Committed Heap Size:    Size: 0x");
        for (var region : RealDump.of("net8-svr").heap.regionsByAddress()) {
            assertThat(r.out()).contains(String.format("%016x %016x", region.descriptor(), region.mem()));
        }
    }

    @Test
    void handlesPrintsEveryHandleHoldingAnObjectThenStatisticsAndCounts() {
        Outcome r = run("walk", RealDump.root().resolve("net10-svr/core.xz").toString(), "--handles");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Statistics:", "Handles:", "Strong Handles:", "WeakShort", "WeakLong", "Pinned", "Dependent");
        assertThat(r.out()).contains("00007f030b5f19f8"); // the program's dependent handle (handles.txt)
        // as SOS's gchandles: only handles that hold an object, each with its size and type
        assertThat(r.out().lines().filter(l -> l.matches("[0-9a-f]{16} .*"))).isNotEmpty()
                .noneMatch(l -> l.split("\\s+")[2].equals("0000000000000000"))
                .allMatch(l -> l.matches("[0-9a-f]{16} \\S+ +[0-9a-f]{16} +[0-9]+ .*\\S"));
        assertThat(r.out()).contains("System.");
    }

    @Test
    void verifyOfARealDumpFindsNoProblem() {
        Outcome r = run("walk", RealDump.root().resolve("net10-compact/core.xz").toString(), "--verify", "--json");
        assertThat(r.exitCode()).as(r.out()).isZero();
        assertThat(r.out()).contains("\"problems\" : 0");
    }

    @Test
    void verifyOfACorruptedDumpListsTheProblemAndExitsWith1(@TempDir Path tmp) throws IOException {
        RealDump d = RealDump.of("net9-withheap");
        long victim = d.reported("OBJ").get(0).address();
        Path copy = tmp.resolve("corrupt.core");
        Files.copy(d.core.path(), copy);
        var segment = d.core.loadSegments().stream()
                .filter(l -> Long.compareUnsigned(victim - l.vaddr(), l.filesz()) < 0).findFirst().orElseThrow();
        try (FileChannel file = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            file.write(ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(0x6000_0000_0000L).flip(),
                    segment.fileOffset() + (victim - segment.vaddr()));
        }
        Outcome r = run("walk", copy.toString(), "--verify");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains(String.format("bad MethodTable at 0x%x: MethodTable 0x600000000000", victim), "the walk resumes at")
                .containsPattern("[0-9,]+ objects walked, 1 problem\n");
    }

    /**
     * A 10.0.9 server dump whose version strings say 10.0.12 (same length): walked with the layout of 10.0.11, the nearest
     * known build with its table, whose server gc_heap sits 8 bytes later than 10.0.9's. The offsets the GC publishes win,
     * the walk is whole, and the difference is a note about the layout, not a problem of the heap: --verify exits 0.
     */
    @Test
    void aLayoutThatDisagreesWithThePublishedOffsetsIsANoteAndVerifyStillPasses(@TempDir Path tmp) throws IOException {
        RealDump d = RealDump.of("net10-svr");
        Path copy = tmp.resolve("as-10.0.12.core");
        Files.copy(d.core.path(), copy);
        byte[] from = "@(#)Version 10.0.926.27113".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        byte[] to = "@(#)Version 10.0.1226.2711".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        int patched = 0;
        try (FileChannel file = FileChannel.open(copy, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer block = ByteBuffer.allocate(1 << 20);
            for (long at = 0; at < file.size(); at += block.capacity() - from.length) {
                block.clear();
                int n = file.read(block, at);
                for (int i = 0; i + from.length <= n; i++) {
                    if (java.util.Arrays.equals(block.array(), i, i + from.length, from, 0, from.length)) {
                        file.write(ByteBuffer.wrap(to), at + i);
                        patched++;
                    }
                }
            }
        }
        assertThat(patched).as("version strings in the core").isPositive();
        Outcome r = run("walk", copy.toString(), "--verify", "--json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains(".NET 10.0.12 (10.0.1226.2711", "layout: the layout of 10.0.11 (nearest known build of net10",
                "validated on the dump", "clrheap: note: the layout", "is to fix, not the heap",
                "gc_heap_field_offsets[0] (alloc_allocated) = 5208, the profile says 5216");
        assertThat(r.out()).contains("\"problems\" : 0", "\"profileNotes\" : [", "gc_heap_field_offsets[0] (alloc_allocated) = 5208");
        Outcome objects = run("walk", copy.toString(), "--objects", "-q");
        assertThat(objects.out().lines().filter(l -> l.startsWith("0x")).map(l -> l.substring(0, l.indexOf('\t'))).map(a -> Long.parseUnsignedLong(a.substring(2), 16)).toList())
                .containsAll(d.walked.keySet());
    }

    @Test
    void aDirectoryCannotBeOpenedAsADump() {
        Outcome r = run("walk", RealDump.root().toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains(RealDump.root() + " is a directory, not a regular file");
    }

    @Test
    void aDumpWithoutTheRuntimeModuleHeadersIsRefusedWithExitCode3() {
        Outcome r = run("walk", RealDump.root().resolve("net8-nomodule/core.xz").toString(), "--stat");
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("ELF headers", "not in the dump", "Sarif.Multitool", "--module FILE");
    }

    /**
     * net8-nomodule's runtime is the same 8.0.30 single-file host as net8-svr's, whose dump keeps the host's
     * non-executable mappings: rebuild the part of the binary that symbol lookup reads (each PT_LOAD's bytes at its
     * file offset, code pages zero) and give it as --module.
     */
    @Test
    void theRuntimeBinaryGivenWithModuleOpensTheDump(@TempDir Path tmp) throws Exception {
        Path binary = tmp.resolve("Sarif.Multitool");
        rebuildModuleFile(RealDump.of("net8-svr").core, "Sarif.Multitool", binary);
        Path names = RealDump.root().resolve("net8-nomodule/live-objects.txt");
        Outcome r = run("walk", RealDump.root().resolve("net8-nomodule/core.xz").toString(), "--module", binary.toString(),
                "--names", names.toString(), "--stat");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains(".NET 8.0.30 (8.0.3026.36720, commit a83db3e0eb2d), workstation GC");
        assertThat(r.out()).contains("Node", "Free").containsPattern("Total [0-9,]+ objects");
        for (RealDump.LiveObject o : readLive("net8-nomodule")) {
            assertThat(r.out()).contains(String.format("%012x", o.mt()));
        }
    }

    @Test
    void aModuleFileOfAnotherNameIsRefused(@TempDir Path tmp) throws IOException {
        Path other = tmp.resolve("libcoreclr.so");
        Files.writeString(other, "not an ELF file");
        Outcome r = run("walk", RealDump.root().resolve("net8-nomodule/core.xz").toString(), "--module", other.toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("no file named libcoreclr.so is mapped in the dump");
    }

    @Test
    void aFileThatIsNotACoreIsRefusedWithExitCode3(@TempDir Path tmp) throws IOException {
        Path notCore = tmp.resolve("notes.txt");
        Files.writeString(notCore, "hello, this is not an ELF core file at all");
        Outcome r = run("walk", notCore.toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("notes.txt");
    }

    private static List<RealDump.LiveObject> readLive(String name) {
        try {
            return Files.readAllLines(RealDump.root().resolve(name).resolve("live-objects.txt")).stream()
                    .filter(l -> !l.startsWith("#") && !l.isBlank()).limit(50)
                    .map(l -> l.split(" ", 4))
                    .map(t -> new RealDump.LiveObject(RealDump.hex(t[0]), Long.parseLong(t[1]), RealDump.hex(t[2]), t[3])).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** d_tag values whose d_ptr ld.so rebased to an absolute address in the running image (elf.h). */
    private static final java.util.Set<Long> POINTER_TAGS = java.util.Set.of(3L, 4L, 5L, 6L, 7L, 12L, 13L, 17L, 23L, 25L, 26L,
            0x6ffffef5L, 0x6ffffff0L, 0x6ffffffcL, 0x6ffffffeL);

    /**
     * Writes each PT_LOAD of the module's in-memory image at its file offset (bytes not in the dump stay zero), and
     * turns the dynamic section's rebased pointers back into the link-time addresses a file on disk holds.
     */
    private static void rebuildModuleFile(ElfCore core, String name, Path out) throws IOException {
        long base = core.mappedFiles().stream().filter(f -> f.path().endsWith("/" + name) && f.fileOffset() == 0)
                .mapToLong(MappedFile::start).findFirst().orElseThrow();
        long phoff = core.readLong(base + 0x20);
        int phentsize = core.readShort(base + 0x36) & 0xffff;
        int phnum = core.readShort(base + 0x38) & 0xffff;
        List<long[]> pending = new java.util.ArrayList<>();
        try (FileChannel file = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < phnum; i++) {
                long ph = base + phoff + (long) i * phentsize;
                if (core.readInt(ph) == 2) { // PT_DYNAMIC
                    long offset = core.readLong(ph + 8);
                    long vaddr = core.readLong(ph + 16);
                    long filesz = core.readLong(ph + 32);
                    for (long e = 0; e + 16 <= filesz; e += 16) {
                        long tag = core.readLong(base + vaddr + e);
                        long value = core.readLong(base + vaddr + e + 8);
                        if (POINTER_TAGS.contains(tag) && Long.compareUnsigned(value, base) >= 0) {
                            pending.add(new long[] {offset + e + 8, value - base});
                        }
                    }
                }
                if (core.readInt(ph) != 1) { // PT_LOAD
                    continue;
                }
                long offset = core.readLong(ph + 8);
                long vaddr = core.readLong(ph + 16);
                long filesz = core.readLong(ph + 32);
                for (long p = 0; p < filesz; p += 4096) {
                    int n = (int) Math.min(4096, filesz - p);
                    if (core.contains(base + vaddr + p, n)) {
                        file.write(ByteBuffer.wrap(core.readBytes(base + vaddr + p, n)), offset + p);
                    }
                }
            }
            for (long[] fix : pending) {
                file.write(ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(fix[1]).flip(), fix[0]);
            }
        }
    }
}
