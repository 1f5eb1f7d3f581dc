package io.clrheap.golden.corruption;

import static io.clrheap.golden.corruption.Damage.NOTHING;
import static io.clrheap.golden.corruption.Damage.span;

import io.clrheap.golden.corruption.Fixture.KeyObject;
import io.clrheap.layout.view.GcDacVars;
import io.clrheap.layout.view.HandleTable;
import io.clrheap.layout.view.HandleTableBucket;
import io.clrheap.layout.view.HandleTableMap;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.metadata.EcmaMetadata;
import io.clrheap.walker.metadata.MethodTableNames;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * The corruption catalog (GitHub issue 9): each kind is a named way a dump goes bad, applied to a golden fixture's
 * file, with what {@code walk --verify} must report and what the walk must still recover. docs/conformance.md's "Corruption
 * catalog" table is {@link #readmeTable()} (a test keeps them equal).
 */
enum Corruption {

    METHOD_TABLE_UNMAPPED("an object's MethodTable points to memory the dump does not hold",
            "`BAD_METHOD_TABLE` at the object", "every object but that one (the walk resumes at the next)") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            KeyObject victim = f.middle(f.region(SegmentKind.GEN2, 10), o -> o.kind().equals("object")).orElseThrow();
            long unmapped = 0x0000_6000_0000_0000L;
            requireNot(f.target.memory().contains(unmapped, 8), "0x6000_0000_0000 is mapped");
            return Optional.of(Damage.problem(f.patch().putLong(victim.address(), unmapped).writeTo(out),
                    ProblemKind.BAD_METHOD_TABLE, victim.address(), span(victim.address(), victim.end())));
        }
    },
    METHOD_TABLE_GARBAGE("an object's MethodTable points into readable memory that is no MethodTable (a string's characters)",
            "`BAD_METHOD_TABLE` at the object", "every object but that one") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            Region gen2 = f.region(SegmentKind.GEN2, 10);
            KeyObject victim = f.middle(gen2, o -> o.kind().equals("object")).orElseThrow();
            KeyObject string = f.objects.stream().filter(o -> o.type().equals("System.String") && o.size() >= 64).findFirst().orElseThrow();
            return Optional.of(Damage.problem(f.patch().putLong(victim.address(), string.address() + 16).writeTo(out),
                    ProblemKind.BAD_METHOD_TABLE, victim.address(), span(victim.address(), victim.end())));
        }
    },
    ARRAY_COUNT_OVERFLOW("an array's element count makes it run far past its region",
            "`OBJECT_PAST_REGION_END` at the array", "every object but the array") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            // an array of values: its elements cannot pass for objects while the walk looks for the next one
            KeyObject victim = f.middle(f.region(SegmentKind.GEN2, 10), o -> o.type().equals("System.Int32[]") || o.type().equals("System.Byte[]"))
                    .orElseThrow();
            return Optional.of(Damage.problem(f.patch().putInt(victim.address() + 8, 0x7fff_ffff).writeTo(out),
                    ProblemKind.OBJECT_PAST_REGION_END, victim.address(), span(victim.address(), victim.end())));
        }
    },
    ALLOCATED_BELOW_MEM("a region's heap_segment.allocated lies below its mem",
            "`BAD_REGION_BOUNDS` at the heap_segment", "every object outside that region (it is not walked)") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            Region r = f.region(SegmentKind.GEN2, 1);
            return Optional.of(Damage.problem(f.patch().putLong(r.descriptor() + f.offset("heap_segment", "allocated"), r.mem() - 8).writeTo(out),
                    ProblemKind.BAD_REGION_BOUNDS, r.descriptor(), span(r.mem(), r.end())));
        }
    },
    ALLOCATED_BEYOND_RESERVED("a region's heap_segment.allocated lies past its reserved end",
            "`BAD_REGION_BOUNDS` at the heap_segment", "every object outside that region") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            Region r = f.region(SegmentKind.LOH, 1);
            return Optional.of(Damage.problem(f.patch().putLong(r.descriptor() + f.offset("heap_segment", "allocated"), r.reserved() + 0x1000).writeTo(out),
                    ProblemKind.BAD_REGION_BOUNDS, r.descriptor(), span(r.mem(), r.end())));
        }
    },
    SEGMENT_CHAIN_CYCLE("the last region of a generation's list points back to the first",
            "`SEGMENT_CYCLE` at the first region's heap_segment", "every object (the chain is cut where it comes back)") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            List<Region> loh = f.heap.heaps().get(0).regions().stream().filter(r -> r.kind() == SegmentKind.LOH).toList();
            Region first = loh.getFirst();
            return Optional.of(Damage.problem(f.patch().putLong(loh.getLast().descriptor() + f.offset("heap_segment", "next"), first.descriptor()).writeTo(out),
                    ProblemKind.SEGMENT_CYCLE, first.descriptor(), NOTHING));
        }
    },
    ABSURD_HEAP_COUNT("n_heaps says 100,000 server heaps",
            "`BAD_HEAP_COUNT` at n_heaps", "every object: the heaps are counted from g_heaps, each owning its ephemeral region") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            if (!f.server()) {
                return Optional.empty(); // workstation GC has no n_heaps
            }
            long nHeaps = vars(f).nHeaps();
            return Optional.of(Damage.problem(f.patch().putInt(nHeaps, 100_000).writeTo(out), ProblemKind.BAD_HEAP_COUNT, nHeaps, NOTHING));
        }
    },
    TRUNCATED_DUMP("the core file is cut in the middle of the heap's memory",
            "refused at open (exit 3): the PT_LOAD whose bytes run past the end of the file, with its program header's file offset",
            "nothing: PT_LOADs lie in address order, so the runtime module discovery starts from is lost with the heap's tail") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            KeyObject victim = f.middle(f.region(SegmentKind.GEN2, 10), o -> true).orElseThrow();
            Files.write(out, Arrays.copyOf(f.coreBytes(), Math.toIntExact(f.fileOffset(victim.address()))));
            return Optional.of(Damage.refused(out, "runs past the end of the file",
                    String.format("at file offset 0x%x", f.programHeaderOf(victim.address()))));
        }
    },
    ZEROED_PAGE("a 4 KiB page of a gen1 or gen2 region is all zeros",
            "`NULL_METHOD_TABLE` at the first object starting in the page",
            "every object not starting in the page (the walk resumes at the first object after it)") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            for (Region r : f.heap.regionsByAddress()) {
                if (r.kind() != SegmentKind.GEN2 && r.kind() != SegmentKind.GEN1) {
                    continue; // no allocation context to mind there
                }
                List<KeyObject> in = f.objectsIn(r);
                for (long page = (r.mem() + 4095) & -4096L; Long.compareUnsigned(page + 4096, r.end()) < 0; page += 4096) {
                    long p = page;
                    int first = indexOfFirstAtOrAfter(in, p);
                    // an object must start in the page, the one before it must keep its MethodTable and length, and
                    // one must start after it for the walk to resume at
                    if (first > 0 && first < in.size() && in.get(first).address() < p + 4096 && in.get(first - 1).address() + 16 <= p
                            && in.getLast().address() >= p + 4096) {
                        return Optional.of(Damage.problem(f.patch().zero(p, 4096).writeTo(out), ProblemKind.NULL_METHOD_TABLE,
                                in.get(first).address(), span(p, p + 4096)));
                    }
                }
            }
            throw new IllegalStateException(f.label + ": no gen1/gen2 page with an object starting in it");
        }
    },
    ALLOC_CONTEXT_OVER_OBJECTS("an allocation context (an unused one where there is one) is set over live objects in gen2",
            "`BAD_ALLOC_CONTEXT` at the context (a live context's memory holds no object yet)",
            "every object: the context is ignored and its span walked") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            // an unused one, so that no zeroed context memory is left unskipped; else any (its memory then reads as
            // a null MethodTable, reported too, and the walk goes on past it)
            AllocContextInfo unused = f.heap.contexts().stream().filter(c -> !c.inUse()).findFirst().orElse(f.heap.contexts().getFirst());
            Region r = f.region(SegmentKind.GEN2, 10);
            KeyObject victim = f.middle(r, o -> o.kind().equals("object") && o.address() + 0x200 < r.end()).orElseThrow();
            Fixture.Patch p = f.patch()
                    .putLong(unused.location() + f.offset("gc_alloc_context", "alloc_ptr"), victim.address())
                    .putLong(unused.location() + f.offset("gc_alloc_context", "alloc_limit"), victim.address() + 0x100);
            return Optional.of(Damage.problem(p.writeTo(out), ProblemKind.BAD_ALLOC_CONTEXT, unused.location(), NOTHING));
        }
    },
    FREE_OBJECT_HUGE_LENGTH("a free object's length says 2 GiB",
            "`OBJECT_PAST_REGION_END` at the free object",
            "every object outside the free object (whatever dead objects lie inside it may be listed)") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            for (Region r : f.heap.regionsByAddress()) {
                if (r.kind().smallObjectHeap() && r.kind() != SegmentKind.FROZEN) {
                    Optional<KeyObject> free = f.middle(r, o -> o.kind().equals("free"));
                    if (free.isPresent()) {
                        KeyObject victim = free.get();
                        return Optional.of(Damage.problem(f.patch().putInt(victim.address() + 8, 0x7fff_ff00).writeTo(out),
                                ProblemKind.OBJECT_PAST_REGION_END, victim.address(), span(victim.address(), victim.end())));
                    }
                }
            }
            throw new IllegalStateException(f.label + ": no free object followed by another");
        }
    },
    GENERATION_TABLE_OUTSIDE_MEMORY("heap 0's LOH generation names a first region outside the dump's memory",
            "`UNREADABLE_STRUCTURE` at the address it names, `RECOVERED_REGION` at heap 0's LOH regions",
            "every object: the LOH regions the list no longer reaches are found in the region map") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            long table = f.heap.heaps().get(0).generationTable();
            long stride = f.target.layout().type("generation").size().orElseThrow();
            long outside = 0x0000_6100_0000_0000L;
            requireNot(f.target.memory().contains(outside, 8), "0x6100_0000_0000 is mapped");
            long field = table + 3 * stride + f.offset("generation", "start_segment");
            return Optional.of(Damage.problem(f.patch().putLong(field, outside).writeTo(out), ProblemKind.UNREADABLE_STRUCTURE, outside, NOTHING));
        }
    },
    DUPLICATE_HEAP("g_heaps[1] names heap 0's gc_heap (server GC)",
            "`DUPLICATE_HEAP` at g_heaps[1], `RECOVERED_REGION` at each of heap 1's regions",
            "every object: heap 1's regions are found in the region map, and heap 1 is read from the gc_heap they name") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            if (!f.server() || f.heap.heaps().size() < 2) {
                return Optional.empty(); // one heap has no second entry to damage
            }
            long entry = f.readPointer(vars(f).gHeaps()) + 8;
            return Optional.of(Damage.problem(f.patch().putLong(entry, f.heap.heaps().get(0).gcHeap()).writeTo(out),
                    ProblemKind.DUPLICATE_HEAP, entry, NOTHING));
        }
    },
    EMPTIED_GENERATION_LIST("heap 0's gen2 generation names no first region (start_segment 0)",
            "`MISSING_GENERATION_START` at the start_segment field, `RECOVERED_REGION` at each gen2 region",
            "every object but the frozen segments' (only that list names them; their descriptors are not in the region map): the gen2 regions are found in the region map") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            long stride = f.target.layout().type("generation").size().orElseThrow();
            long field = f.heap.heaps().get(0).generationTable() + 2 * stride + f.offset("generation", "start_segment");
            return Optional.of(Damage.problem(f.patch().putLong(field, 0).writeTo(out), ProblemKind.MISSING_GENERATION_START, field,
                    a -> f.objects.stream().anyMatch(o -> o.address() == a && o.generation().equals("frozen"))));
        }
    },
    EPHEMERAL_SEGMENT_GARBAGE("heap 0's ephemeral_heap_segment names no region",
            "`EPHEMERAL_NOT_LISTED` at the ephemeral_heap_segment field",
            "every object: the listed gen0 region holding alloc_allocated is taken as the ephemeral one") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            long gcHeap = f.heap.heaps().get(0).gcHeap();
            long field = f.server() ? gcHeap + f.offset("gc_heap", "ephemeral_heap_segment") : vars(f).ephemeralHeapSegment();
            return Optional.of(Damage.problem(f.patch().putLong(field, 0x0000_6200_0000_0000L).writeTo(out), ProblemKind.EPHEMERAL_NOT_LISTED,
                    field, NOTHING));
        }
    },
    THREAD_LIST_CYCLE("the last thread's LinkNext points back to the first thread",
            "`BAD_THREAD_LIST` at the first thread's link", "every object (every thread was seen before the list came back)") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            long store = f.target.globalPointer("ThreadStore::s_pThreadStore");
            long first = f.readPointer(store + f.offset("ThreadStore", "FirstThreadLink"));
            long last = first;
            while (f.readPointer(last) != 0) { // a link points at the next thread's link
                last = f.readPointer(last);
            }
            return Optional.of(Damage.problem(f.patch().putLong(last, first).writeTo(out), ProblemKind.BAD_THREAD_LIST, first, NOTHING));
        }
    },
    HANDLE_TABLE_SEGMENT_CYCLE("the last segment of heap 0's handle table points back to its first",
            "`HANDLE_TABLE_CYCLE` at the first segment", "every object and every handle") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            var views = f.target.views();
            var memory = f.target.memory();
            long buckets = views.view(HandleTableMap.class, memory, vars(f).handleTableMap()).buckets();
            long tables = views.view(HandleTableBucket.class, memory, f.readPointer(buckets)).tables();
            long first = views.view(HandleTable.class, memory, f.readPointer(tables)).segmentList();
            long next = f.offset("TableSegment", "pNextSegment");
            long last = first;
            while (f.readPointer(last + next) != 0) {
                last = f.readPointer(last + next);
            }
            return Optional.of(Damage.problem(f.patch().putLong(last + next, first).writeTo(out), ProblemKind.HANDLE_TABLE_CYCLE, first, NOTHING));
        }
    },
    METADATA_TABLE_ROWS("the TypeDef row count in the scenario assembly's metadata table stream says 2^31 rows",
            "`CORRUPT_METADATA` at the row count", "every object (the assembly's types print by MethodTable)") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            EcmaMetadata md = userMetadata(f);
            // the #~ header's row counts follow its 24 bytes in table order; TypeDef (0x02) is the third present table
            long count = rowCountAddress(f, md, EcmaMetadata.TYPE_DEF);
            return Optional.of(Damage.problem(f.patch().putInt(count, Integer.MAX_VALUE).writeTo(out), ProblemKind.CORRUPT_METADATA, count, NOTHING));
        }
    },
    METADATA_STRING_INDEX("a TypeDef row's TypeName indexes past the end of the #Strings heap",
            "`CORRUPT_METADATA` at the TypeName cell", "every object (that type prints by MethodTable)") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            EcmaMetadata md = userMetadata(f);
            long cell = md.cellAddress(EcmaMetadata.TYPE_DEF, userTypeRid(f), 1);
            // a 2- or 4-byte index: all ones is past any heap a fixture has, whichever width the tables use
            Fixture.Patch patch = f.patch();
            patch.putByte(cell, (byte) 0xff).putByte(cell + 1, (byte) 0xff);
            return Optional.of(Damage.problem(patch.writeTo(out), ProblemKind.CORRUPT_METADATA, cell, NOTHING));
        }
    },
    BUNDLE_PATH_ESCAPE("a bundle entry is named ../escaped.txt",
            "refused at open (exit 3), naming the entry", "nothing: the bundle is refused before anything is extracted") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            byte[] tar = unxz(Files.readAllBytes(f.bundle));
            int second = 512 + (int) ((tarSize(tar, 0) + 511) & -512L); // the entry after manifest.json
            byte[] name = new byte[100];
            byte[] escaped = "../escaped.txt".getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(escaped, 0, name, 0, escaped.length);
            System.arraycopy(name, 0, tar, second, 100);
            Arrays.fill(tar, second + 345, second + 500, (byte) 0); // the ustar prefix field: the name is the whole path
            fixChecksum(tar, second);
            Files.write(out, xz(tar));
            return Optional.of(Damage.refused(out, "../escaped.txt"));
        }
    },
    BUNDLE_DECOMPRESSION_BOMB("a bundle whose xz data goes on for 4 GiB of zeros after the archive",
            "refused at open (exit 3) after at most the padding the reader allows past the end-of-archive marker",
            "nothing: the bundle is refused; decompression stops early, so no time or memory goes to the rest") {
        @Override
        Optional<Damage> apply(Fixture f, Path out) throws IOException {
            // concatenated xz streams are one xz file (xz file format 1.2.0, section 2): 64 copies of one stream
            // holding 64 MiB of zeros make 4 GiB from about half a megabyte
            byte[] zeros = zerosStream();
            try (var file = Files.newOutputStream(out)) {
                file.write(Files.readAllBytes(f.bundle));
                for (int i = 0; i < 64; i++) {
                    file.write(zeros);
                }
            }
            return Optional.of(Damage.refused(out, "after the end-of-archive marker"));
        }
    };

    private final String description;
    private final String reported;
    private final String recovered;

    Corruption(String description, String reported, String recovered) {
        this.description = description;
        this.reported = reported;
        this.recovered = recovered;
    }

    /** Writes the damaged copy of {@code f} to {@code out}; empty when the kind does not apply to the fixture. */
    abstract Optional<Damage> apply(Fixture f, Path out) throws IOException;

    String description() {
        return description;
    }

    /** docs/conformance.md's table: kind → what it is → what is reported → what is recovered. */
    static List<String> readmeTable() {
        List<String> rows = new java.util.ArrayList<>();
        rows.add("| kind | corruption | `walk --verify` reports | the walk recovers |");
        rows.add("|---|---|---|---|");
        for (Corruption c : values()) {
            rows.add("| `" + c.name() + "` | " + c.description + " | " + c.reported + " | " + c.recovered + " |");
        }
        return rows;
    }

    /** A user type of the fixture (not System.*): its MethodTable, whose module is the scenario's assembly. */
    private static long userType(Fixture f) {
        return f.objects.stream().filter(o -> o.kind().equals("object") && !o.type().startsWith("System.") && !o.type().endsWith("]"))
                .findFirst().orElseThrow(() -> new IllegalStateException("the corruption cannot be planted: no user type")).mt();
    }

    private static int userTypeRid(Fixture f) {
        return (int) (f.target.memory().readU32(userType(f) + f.target.layout().offset("MethodTable", "MTFlags2"))
                >>> f.target.layout().constant("method_table.flags2.token_shift"));
    }

    /** The metadata of the scenario's assembly, found by the walker's reader (MethodTable → Module → image → root). */
    private static EcmaMetadata userMetadata(Fixture f) {
        MethodTableNames names = new MethodTableNames(f.target.memory(), f.target.layout());
        long module = f.target.memory().readPointer(userType(f) + f.target.layout().offset("MethodTable", "Module"));
        return EcmaMetadata.read(f.target.memory(), names.module(module).location().root());
    }

    /** Where the #~ stream's row count of {@code table} lies: after its 24-byte header, one u32 per present table. */
    private static long rowCountAddress(Fixture f, EcmaMetadata md, int table) {
        long tables = md.tablesStream();
        long valid = f.target.memory().readLong(tables + 8);
        return tables + 24 + 4L * Long.bitCount(valid & ((1L << table) - 1));
    }

    private static GcDacVars vars(Fixture f) {
        return f.target.views().view(GcDacVars.class, f.target.memory(), f.target.globalPointer("g_gcDacGlobals"));
    }

    private static void requireNot(boolean condition, String why) {
        if (condition) {
            throw new IllegalStateException("the corruption cannot be planted: " + why);
        }
    }

    private static int indexOfFirstAtOrAfter(List<KeyObject> sorted, long address) {
        for (int i = 0; i < sorted.size(); i++) {
            if (Long.compareUnsigned(sorted.get(i).address(), address) >= 0) {
                return i;
            }
        }
        return sorted.size();
    }

    private static byte[] unxz(byte[] bytes) throws IOException {
        try (InputStream in = new XZInputStream(new ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        }
    }

    private static byte[] xz(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (XZOutputStream xz = new XZOutputStream(out, new LZMA2Options(3))) {
            xz.write(bytes);
        }
        return out.toByteArray();
    }

    private static byte[] zerosCache;

    private static synchronized byte[] zerosStream() throws IOException {
        if (zerosCache == null) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (XZOutputStream xz = new XZOutputStream(out, new LZMA2Options(0))) {
                byte[] mib = new byte[1 << 20];
                for (int i = 0; i < 64; i++) {
                    xz.write(mib);
                }
            }
            zerosCache = out.toByteArray();
        }
        return zerosCache;
    }

    /** The size field of the ustar header at {@code at} (octal, 12 bytes at +124). */
    private static long tarSize(byte[] tar, int at) {
        String octal = new String(tar, at + 124, 12, StandardCharsets.US_ASCII).replace("\0", "").trim();
        return Long.parseLong(octal, 8);
    }

    /** The ustar checksum (+148, 8 bytes): the sum of the header's bytes with the field read as spaces. */
    private static void fixChecksum(byte[] tar, int at) {
        Arrays.fill(tar, at + 148, at + 156, (byte) ' ');
        int sum = 0;
        for (int i = 0; i < 512; i++) {
            sum += tar[at + i] & 0xff;
        }
        byte[] field = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(field, 0, tar, at + 148, 8);
    }
}
