package io.clrheap.generator.answer;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.truth.ObjectGraph;
import io.clrheap.emulator.truth.StackRoot;
import io.clrheap.walker.source.PendingFolder;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The answer key of a fixture, written from the emulator's ground truth — never from a walk — into a folder
 * (docs/answer-key.md describes every file):
 * {@code fixture.txt}, {@code objects.tsv}, {@code dumpheap-stat.txt}, {@code eeheap.txt}, {@code gchandles.txt}, {@code regions.tsv},
 * {@code threads.tsv}, the object graph: {@code references.tsv}, {@code roots.tsv}, {@code live.tsv}, and the objects' fields:
 * {@code fields.tsv}. Addresses are {@code 0x} and lowercase hex, sizes unaligned decimal; the same process gives
 * the same bytes.
 * Long because it writes every file of the answer key, each a few lines over the ground truth.
 */
public final class AnswerKeyWriter {

    /** The files, in the order they are written. */
    public static final List<String> FILES = List.of("fixture.txt", "objects.tsv", "dumpheap-stat.txt", "eeheap.txt", "gchandles.txt", "regions.tsv",
            "threads.tsv", "references.tsv", "roots.tsv", "live.tsv", "fields.tsv");
    private static final String[] GENERATIONS = {"gen0", "gen1", "gen2", "loh", "poh"};

    private AnswerKeyWriter() {
    }

    /**
     * Writes the files into {@code target}, replacing what was there: they are written into a new folder beside it,
     * which then takes its place, so a failed or interrupted run never leaves a partial or stale answer key.
     */
    public static void write(EmulatedRuntime process, Path target) throws IOException {
        write(process, target, done -> { });
    }

    /** As {@link #write(EmulatedRuntime, Path)}; {@code objectsWritten} hears the lines of {@code objects.tsv} written so far. */
    public static void write(EmulatedRuntime process, Path target, java.util.function.LongConsumer objectsWritten) throws IOException {
        // written into a hidden temporary folder beside the target and renamed into place when complete: a failed or
        // interrupted run (SIGINT, SIGTERM, a full disk) leaves no answer key, and an old one stays until the new one is whole
        try (PendingFolder folder = PendingFolder.beside(target)) {
            try {
                writeInto(process, folder.path(), objectsWritten);
            } catch (IOException | RuntimeException e) {
                throw folder.failed(e);
            }
            folder.commit();
        }
    }

    private static void writeInto(EmulatedRuntime process, Path folder, java.util.function.LongConsumer objectsWritten) throws IOException {
        GroundTruth truth = process.groundTruth();
        Map<Long, String> names = process.typeNames();
        try (Writer out = writer(folder.resolve("fixture.txt"))) {
            // what the fixture is, and which walker mistake it is there to catch (the scenario's one line)
            out.write(String.format(Locale.ROOT, "%s on %s (%s), %s GC, %d heap%s, seed %d: %s\n", process.scenario().name(), process.scenario().runtime().shortName(),
                    process.layout().primaryBuild().version(), process.scenario().gc().id(), process.scenario().heaps(),
                    process.scenario().heaps() == 1 ? "" : "s", process.scenario().seed(), process.scenario().description()));
        }
        try (ObjectLines out = new ObjectLines(Files.newOutputStream(folder.resolve("objects.tsv")), names)) {
            out.header("address\tmt\tsize\tgeneration\theap\tkind\ttype\n");
            long[] lines = new long[1];
            try {
                truth.forEachObject((address, mt, size, generation, heap, kind) -> {
                    if ((++lines[0] & 0xffff) == 0) {
                        objectsWritten.accept(lines[0]);
                    }
                    out.line(address, mt, size, generation, heap, kind);
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
        try (Writer out = writer(folder.resolve("dumpheap-stat.txt"))) {
            out.write(dumpHeapStat(truth, names));
        }
        try (Writer out = writer(folder.resolve("eeheap.txt"))) {
            out.write(AnswerKeyReports.eeHeap(process));
        }
        try (Writer out = writer(folder.resolve("gchandles.txt"))) {
            out.write(AnswerKeyReports.gcHandles(truth, names));
        }
        try (Writer out = writer(folder.resolve("regions.tsv"))) {
            out.write("heap\tgeneration\theap_segment\tstart\tmem\tend\treserved\tflags\n");
            for (GroundTruth.RegionInfo r : regionsByAddress(truth)) {
                out.write(String.format(Locale.ROOT, "%d\t%s\t0x%x\t0x%x\t0x%x\t0x%x\t0x%x\t0x%x\n", r.heap(), r.frozen() ? "frozen" : generation(r.generation()),
                        r.descriptor(), r.start(), r.mem(), r.end(), r.reserved(), r.flags()));
            }
        }
        try (Writer out = writer(folder.resolve("threads.tsv"))) {
            out.write("managed_id\tos_id\tthread\theap\talloc_context\talloc_ptr\talloc_limit\talloc_bytes\n");
            Map<Long, GroundTruth.ContextInfo> contexts = new LinkedHashMap<>();
            truth.contexts().forEach(c -> contexts.put(c.location(), c));
            for (GroundTruth.ThreadInfo t : truth.threads()) {
                GroundTruth.ContextInfo c = contexts.get(t.allocContext());
                out.write(String.format(Locale.ROOT, "%d\t%d\t0x%x\t%d\t0x%x\t0x%x\t0x%x\t%d\n", t.managedId(), t.osId(), t.thread(), t.heap(), t.allocContext(),
                        c == null ? 0 : c.pointer(), c == null ? 0 : c.limit(), t.allocBytes()));
            }
        }
        writeGraph(process, folder);
        try (Writer out = writer(folder.resolve("fields.tsv"))) {
            out.write(FIELDS_HEADER + "\n");
            FieldRows.write(process, out);
        }
    }

    /** fields.tsv's header (docs/answer-key.md). */
    public static final String FIELDS_HEADER = "object\tfield\tdeclared_type\toffset\tvalue";

    /**
     * The object graph (docs/answer-key.md): every non-null reference by source then offset; the roots: handles and
     * finalization queue slots by address, then the stack roots thread by thread in thread-store order (slots ascending,
     * then registers); the objects reachable from the roots that keep objects alive, by address.
     */
    private static void writeGraph(EmulatedRuntime process, Path folder) throws IOException {
        ObjectGraph graph = process.objectGraph();
        try (Writer out = writer(folder.resolve("references.tsv"))) {
            out.write("from\toffset\tto\n");
            try {
                graph.forEachReference((from, offset, to) -> {
                    try {
                        out.write("0x" + Long.toHexString(from) + "\t" + offset + "\t0x" + Long.toHexString(to) + "\n");
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
        try (Writer out = writer(folder.resolve("roots.tsv"))) {
            out.write(ROOTS_HEADER + "\n");
            for (ObjectGraph.Root r : graph.roots()) {
                out.write(r.kind() + "\t0x" + Long.toHexString(r.address()) + "\t0x" + Long.toHexString(r.target()) + "\t" + flags(r.kind(), false) + "\t-\n");
            }
            for (StackRoot r : process.groundTruth().stackRoots()) {
                out.write("stack\t" + r.root() + "\t0x" + Long.toHexString(r.object()) + "\t" + flags("stack", r.interior()) + "\t" + r.osId() + "\n");
            }
        }
        try (Writer out = writer(folder.resolve("live.tsv"))) {
            out.write("address\n");
            for (long a : graph.live()) {
                out.write("0x" + Long.toHexString(a) + "\n");
            }
        }
    }

    /** roots.tsv's header (docs/answer-key.md). */
    public static final String ROOTS_HEADER = "kind\troot\tobject\tflags\tthread";

    /**
     * roots.tsv's flags column: {@code pinned} (pinned and async-pinned handles), {@code weak} (the handles whose target
     * the GC does not keep alive: weak short and long, dependent by its primary, weak native COM, weak interior pointer),
     * {@code interior} (a stack word pointing inside its object), comma-separated in that order; {@code -} for none.
     */
    static String flags(String kind, boolean interior) {
        List<String> flags = new ArrayList<>();
        if (kind.equals("pinned") || kind.equals("async-pinned")) {
            flags.add("pinned");
        }
        if (kind.startsWith("weak-") || kind.equals("dependent")) {
            flags.add("weak");
        }
        if (interior) {
            flags.add("interior");
        }
        return flags.isEmpty() ? "-" : String.join(",", flags);
    }

    /**
     * The lines of {@code objects.tsv}, encoded straight into bytes (ASCII but for the type names, which are UTF-8 and
     * encoded once per MethodTable): a hundred million objects take minutes through a {@link Writer} and strings.
     */
    private static final class ObjectLines implements AutoCloseable {
        private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
        private static final byte[][] GENERATION_BYTES = {
            "gen0".getBytes(StandardCharsets.US_ASCII), "gen1".getBytes(StandardCharsets.US_ASCII), "gen2".getBytes(StandardCharsets.US_ASCII),
            "loh".getBytes(StandardCharsets.US_ASCII), "poh".getBytes(StandardCharsets.US_ASCII)};
        private static final byte[] FROZEN = "frozen".getBytes(StandardCharsets.US_ASCII);

        private final java.io.OutputStream out;
        private final Map<Long, String> names;
        private final byte[] buffer = new byte[1 << 16];
        private int used;
        /** Per kind, MethodTable → the line's end: kind, tab, type name, newline. */
        private final List<Map<Long, byte[]>> tails = new ArrayList<>();
        private long lastMt = -1;
        private GroundTruth.Kind lastKind;
        private byte[] lastTail;

        ObjectLines(java.io.OutputStream out, Map<Long, String> names) {
            this.out = out;
            this.names = names;
            for (int i = 0; i < GroundTruth.Kind.values().length; i++) {
                tails.add(new java.util.HashMap<>());
            }
        }

        void header(String text) {
            put(text.getBytes(StandardCharsets.UTF_8));
        }

        void line(long address, long mt, long size, int generation, int heap, GroundTruth.Kind kind) {
            room(128);
            buffer[used++] = '0';
            buffer[used++] = 'x';
            hex(address);
            buffer[used++] = '\t';
            buffer[used++] = '0';
            buffer[used++] = 'x';
            hex(mt);
            buffer[used++] = '\t';
            decimal(size);
            buffer[used++] = '\t';
            byte[] g = generation < 0 ? FROZEN : GENERATION_BYTES[generation];
            System.arraycopy(g, 0, buffer, used, g.length);
            used += g.length;
            buffer[used++] = '\t';
            decimal(heap);
            buffer[used++] = '\t';
            if (mt != lastMt || kind != lastKind) {
                lastTail = tails.get(kind.ordinal()).computeIfAbsent(mt,
                        k -> (kindColumn(kind) + "\t" + typeName(kind, k, names) + "\n").getBytes(StandardCharsets.UTF_8));
                lastMt = mt;
                lastKind = kind;
            }
            put(lastTail);
        }

        /** Lowercase hex without leading zeros, as {@link Long#toHexString}. */
        private void hex(long v) {
            int digits = Math.max(1, (67 - Long.numberOfLeadingZeros(v)) / 4);
            for (int i = digits - 1; i >= 0; i--) {
                buffer[used + i] = HEX[(int) (v & 0xf)];
                v >>>= 4;
            }
            used += digits;
        }

        /** Decimal, as {@link StringBuilder#append(long)}. */
        private void decimal(long v) {
            if (v < 0) {
                byte[] text = Long.toString(v).getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(text, 0, buffer, used, text.length);
                used += text.length;
                return;
            }
            int digits = 1;
            for (long t = v; t >= 10; t /= 10) {
                digits++;
            }
            for (int i = digits - 1; i >= 0; i--) {
                buffer[used + i] = (byte) ('0' + v % 10);
                v /= 10;
            }
            used += digits;
        }

        private void put(byte[] bytes) {
            if (bytes.length > buffer.length - used) {
                flush();
                if (bytes.length > buffer.length) {
                    write(bytes, bytes.length);
                    return;
                }
            }
            System.arraycopy(bytes, 0, buffer, used, bytes.length);
            used += bytes.length;
        }

        private void room(int bytes) {
            if (buffer.length - used < bytes) {
                flush();
            }
        }

        private void flush() {
            write(buffer, used);
            used = 0;
        }

        private void write(byte[] bytes, int length) {
            try {
                out.write(bytes, 0, length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                flush();
            } catch (UncheckedIOException e) {
                throw e.getCause();
            } finally {
                out.close();
            }
        }
    }

    private static Writer writer(Path file) throws IOException {
        return new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16);
    }

    private static String generation(int generation) {
        return generation < 0 ? "frozen" : GENERATIONS[generation];
    }

    /**
     * The kind column of objects.tsv: {@code object} or {@code free}. The LOH's padding objects are free objects to
     * anyone reading the dump, so they are {@code free} here too: the file is what a correct walker prints.
     */
    private static String kindColumn(GroundTruth.Kind kind) {
        return kind == GroundTruth.Kind.OBJECT ? "object" : "free";
    }

    private static String typeName(GroundTruth.Kind kind, long mt, Map<Long, String> names) {
        return kind == GroundTruth.Kind.OBJECT ? names.getOrDefault(mt, String.format(Locale.ROOT, "Unknown (MethodTable: 0x%x)", mt)) : "Free";
    }

    /**
     * SOS {@code dumpheap -stat} (docs/reference/walker-semantics.md 6.1): {@code MT Count TotalSize Class Name}, rows by TotalSize
     * ascending (ties in the order the types are first met in address order), a {@code Free} row, the total last.
     */
    static String dumpHeapStat(GroundTruth truth, Map<Long, String> names) {
        Map<Long, long[]> rows = new LinkedHashMap<>();
        Map<Long, String> rowNames = new LinkedHashMap<>();
        long[] total = new long[2];
        truth.forEachObject((address, mt, size, generation, heap, kind) -> {
            long[] row = rows.computeIfAbsent(mt, k -> new long[2]);
            row[0]++;
            row[1] += size;
            rowNames.putIfAbsent(mt, typeName(kind, mt, names));
            total[0]++;
            total[1] += size;
        });
        if (rows.isEmpty()) {
            return ""; // SOS prints neither header nor total when nothing matched
        }
        List<Map.Entry<Long, long[]>> order = new ArrayList<>(rows.entrySet());
        order.sort(Comparator.comparingLong(e -> e.getValue()[1])); // stable
        int mtWidth = 12;
        int countWidth = "Count".length();
        int totalWidth = "TotalSize".length();
        for (var e : order) {
            mtWidth = Math.max(mtWidth, Long.toHexString(e.getKey()).length());
            countWidth = Math.max(countWidth, n0(e.getValue()[0]).length());
            totalWidth = Math.max(totalWidth, n0(e.getValue()[1]).length());
        }
        StringBuilder s = new StringBuilder("Statistics:\n");
        s.append(pad("MT", mtWidth)).append(' ').append(pad("Count", countWidth)).append(' ').append(pad("TotalSize", totalWidth)).append(" Class Name\n");
        for (var e : order) {
            s.append(pad(String.format(Locale.ROOT, "%012x", e.getKey()), mtWidth)).append(' ').append(pad(n0(e.getValue()[0]), countWidth)).append(' ')
                    .append(pad(n0(e.getValue()[1]), totalWidth)).append(' ').append(rowNames.get(e.getKey())).append('\n');
        }
        s.append("Total ").append(n0(total[0])).append(" objects, ").append(n0(total[1])).append(" bytes\n");
        return s.toString();
    }

    private static List<GroundTruth.RegionInfo> regionsByAddress(GroundTruth truth) {
        List<GroundTruth.RegionInfo> regions = new ArrayList<>(truth.regions());
        regions.sort(Comparator.comparing(GroundTruth.RegionInfo::mem, Long::compareUnsigned));
        return regions;
    }

    private static String n0(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
