package io.clrheap.conformance.corpus;

import io.clrheap.walker.source.CoreCache;
import io.clrheap.walker.OpenOptions;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.Problem;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real golden folder (golden/real/NAME, or one {@code clrheap capture} wrote) checked the way the real-dump tests
 * check it: the walker runs on {@code core.xz} (or a Windows folder's {@code dump.dmp.xz}) and must find every object of {@code live-objects.txt} (the runtime's
 * own list) with its MethodTable and size, meet no problem, and every object it finds beyond the list (dead ones: the
 * list holds live objects only) must be free or have a real MethodTable (its EEClass points back to it). A list
 * that is empty, truncated or malformed, or disagrees with the folder's own counts ({@code info.txt}'s object count,
 * {@code selfreport.txt}'s OBJ addresses), is refused before the walk ({@link BadLiveListException}). The walker's roots
 * are held to the runtime's too ({@link RealRootsCheck}): every listed object live by them, every runtime root found.
 */
public final class RealGoldenCheck {

    /** At most this many differences of each kind are kept for the report (all are counted). */
    public static final int SHOWN = 20;

    private RealGoldenCheck() {
    }

    /** One object of live-objects.txt. */
    public record LiveObject(long address, long size, long mt, String type) {
    }

    /** The outcome: counts, and the first differences of each kind. */
    public record Report(Path folder, int listed, long walked, long extras, long missingCount, long misreadCount, long badExtraCount,
            List<String> missing, List<String> misread, List<String> badExtras, List<String> problems, Map<String, Long> extrasByType,
            RealRootsCheck roots) {

        public boolean passed() {
            return missingCount == 0 && misreadCount == 0 && badExtraCount == 0 && problems.isEmpty() && roots.passed();
        }
    }

    /** A live list that cannot be the referee: empty, truncated, malformed, or at odds with the folder's own counts. */
    public static final class BadLiveListException extends IOException {
        public BadLiveListException(String message) {
            super(message);
        }
    }

    private static final Pattern LIVE_LINE = Pattern.compile("0x([0-9a-fA-F]{1,16}) ([0-9]{1,19}) 0x([0-9a-fA-F]{1,16}) (\\S.*)");
    /** info.txt's count of the snapshot's objects: golden/real's form and the one {@code clrheap capture} writes. */
    private static final Pattern INFO_COUNT = Pattern.compile("(?:live objects \\(EventPipe heap walk\\): (\\d+)|snapshot: (\\d+) objects).*");
    private static final Pattern OBJ_ADDRESS = Pattern.compile("OBJ\\b.*\\baddr=(0x[0-9a-fA-F]+)\\b.*");

    /**
     * Reads {@code address size mt type} lines; '#' lines and blank ones are skipped. Every other line must be
     * exactly that (hex address, decimal size, hex MethodTable, a type), the file must end in a line feed (a list cut
     * mid-line does not) and list at least one object.
     *
     * @throws BadLiveListException naming the file and line
     */
    public static List<LiveObject> readLiveObjects(Path file) throws IOException {
        List<LiveObject> out = new ArrayList<>();
        long size = Files.size(file);
        if (size > 0) {
            try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "r")) {
                f.seek(size - 1);
                if (f.read() != '\n') {
                    long lines = 0;
                    try (var all = Files.lines(file, StandardCharsets.UTF_8)) {
                        lines = all.count();
                    }
                    throw new BadLiveListException(file + " line " + lines + ": the last line has no line feed: the list is truncated");
                }
            }
        }
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                Matcher m = LIVE_LINE.matcher(line.strip());
                if (!m.matches()) {
                    throw new BadLiveListException(file + " line " + n + ": not 'address size mt type': "
                            + (line.length() > 120 ? line.substring(0, 120) + "…" : line));
                }
                try {
                    out.add(new LiveObject(Long.parseUnsignedLong(m.group(1), 16), Long.parseLong(m.group(2)),
                            Long.parseUnsignedLong(m.group(3), 16), m.group(4)));
                } catch (NumberFormatException e) {
                    throw new BadLiveListException(file + " line " + n + ": the size is out of range: " + line);
                }
            }
        } catch (java.nio.charset.MalformedInputException e) {
            throw new BadLiveListException(file + ": not UTF-8 text");
        }
        if (out.isEmpty()) {
            throw new BadLiveListException(file + " line 1: lists no object (an empty or comment-only list cannot be the referee)");
        }
        return out;
    }

    /**
     * Checks {@code live}, read from {@code folder/live-objects.txt}, against what the folder itself says: the object
     * count {@code info.txt} states ({@code live objects (EventPipe heap walk): N}, which golden/real's folders and
     * {@code clrheap capture} write, must equal the list's; a folder without it is refused: a list cut short would
     * pass; capture's {@code snapshot: N objects} bounds it) and every {@code OBJ} line of {@code selfreport.txt} (when there
     * is one), whose address must be listed; no address may be listed twice.
     *
     * @throws BadLiveListException naming the file and line that disagrees
     */
    public static void checkAgainstFolder(Path folder, List<LiveObject> live) throws IOException {
        Path list = folder.resolve("live-objects.txt");
        java.util.Set<Long> addresses = new java.util.HashSet<>(live.size() * 2);
        for (LiveObject o : live) {
            if (!addresses.add(o.address())) {
                throw new BadLiveListException(String.format(Locale.ROOT, "%s: object 0x%x is listed twice", list, o.address()));
            }
        }
        Path self = folder.resolve("selfreport.txt");
        if (Files.isRegularFile(self)) {
            try (BufferedReader r = Files.newBufferedReader(self, StandardCharsets.UTF_8)) {
                String line;
                int n = 0;
                while ((line = r.readLine()) != null) {
                    n++;
                    Matcher m = OBJ_ADDRESS.matcher(line);
                    if (m.matches() && !addresses.contains(hex(m.group(1)))) {
                        throw new BadLiveListException(String.format(Locale.ROOT,
                                "%s line %d: the program's own object %s is not in %s: the list is truncated or not this folder's",
                                self, n, m.group(1), list));
                    }
                }
            }
        }
        Path info = folder.resolve("info.txt");
        if (!Files.isRegularFile(info)) {
            throw new BadLiveListException(String.format(Locale.ROOT, "%s has no info.txt: nothing in the folder says how many objects the runtime "
                    + "listed, so a list cut short could not be told from a whole one (live-objects.txt lists %,d); clrheap capture writes "
                    + "'live objects (EventPipe heap walk): N' there", folder, live.size()));
        }
        List<String> lines = Files.readAllLines(info, StandardCharsets.UTF_8);
        boolean stated = false;
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = INFO_COUNT.matcher(lines.get(i).strip());
            if (m.matches()) {
                // "live objects": the list's own count, held exactly; capture's "snapshot: N objects" counts the heap
                // walk's reports, where an object reported twice is listed once: it bounds the list, never states it
                boolean exact = m.group(1) != null;
                stated |= exact;
                long count = Long.parseLong(exact ? m.group(1) : m.group(2));
                if (exact ? count != live.size() : live.size() > count) {
                    throw new BadLiveListException(String.format(Locale.ROOT,
                            "%s lists %,d objects, but %s line %d records %,d: the list is truncated or not this folder's",
                            list, live.size(), info, i + 1, count));
                }
            }
        }
        if (!stated) {
            throw new BadLiveListException(String.format(Locale.ROOT, "%s states no count of the runtime's live objects ('live objects (EventPipe "
                    + "heap walk): N'): a list cut short could not be told from a whole one (live-objects.txt lists %,d)", info, live.size()));
        }
    }

    private static long hex(String s) {
        return Long.parseUnsignedLong(s.startsWith("0x") ? s.substring(2) : s, 16);
    }

    /** The dump files a real folder may hold, in the order they are looked for: a Linux core, or a Windows minidump. */
    public static final List<String> DUMP_FILES = List.of("core.xz", "core", "dump.dmp.xz", "dump.dmp");

    /** The folder's dump: the first of {@link #DUMP_FILES} it holds, if any. */
    public static Optional<Path> dumpOf(Path folder) {
        return DUMP_FILES.stream().map(folder::resolve).filter(Files::isRegularFile).findFirst();
    }

    /** Walks the folder's dump ({@link #dumpOf}) and compares it with {@code folder/live-objects.txt}. */
    public static Report check(Path folder, Optional<Path> module) throws Exception {
        return check(folder, module, CoreCache.fromEnvironment());
    }

    /** As {@link #check(Path, Optional)}, a compressed dump decompressed as {@code cache} says. */
    public static Report check(Path folder, Optional<Path> module, CoreCache cache) throws Exception {
        Path coreFile = dumpOf(folder).orElseThrow(() -> new IOException(folder + " holds none of " + String.join(", ", DUMP_FILES)));
        List<LiveObject> live = readLiveObjects(folder.resolve("live-objects.txt"));
        checkAgainstFolder(folder, live);
        Map<Long, long[]> walked = new HashMap<>();
        List<String> problems = new ArrayList<>();
        long freeMt;
        List<String> missing = new ArrayList<>();
        List<String> misread = new ArrayList<>();
        List<String> badExtras = new ArrayList<>();
        Map<String, Long> extrasByType = new TreeMap<>();
        long missingCount = 0;
        long misreadCount = 0;
        long badExtraCount = 0;
        long extras = 0;
        RealRootsCheck roots;
        try (DumpSession dump = Dumps.open(coreFile, OpenOptions.DEFAULT.withModule(module.orElse(null)).withCoreCache(cache))) {
            Target target = dump.target();
            DiscoveredHeap heap = dump.heap();
            heap.problems().forEach(p -> problems.add(p.describe()));
            freeMt = heap.freeMethodTable();
            dump.walk(new ObjectVisitor() {
                @Override
                public void object(long address, long mt, long size, Region region) {
                    synchronized (walked) {
                        walked.put(address, new long[] {mt, size});
                    }
                }

                @Override
                public void problem(Problem problem) {
                    synchronized (problems) {
                        problems.add(problem.describe());
                    }
                }
            });
            Map<Long, String> names = new HashMap<>();
            java.util.Set<Long> listed = new java.util.HashSet<>();
            for (LiveObject o : live) {
                listed.add(o.address());
                names.putIfAbsent(o.mt(), o.type());
                long[] w = walked.get(o.address());
                if (w == null) {
                    if (missingCount++ < SHOWN) {
                        missing.add(String.format(Locale.ROOT, "0x%x %s (mt 0x%x, size %d): not found by the walk", o.address(), o.type(), o.mt(), o.size()));
                    }
                } else if (w[0] != o.mt() || w[1] != o.size()) {
                    if (misreadCount++ < SHOWN) {
                        misread.add(String.format(Locale.ROOT, "0x%x %s: the list says mt 0x%x size %d, the walk mt 0x%x size %d", o.address(), o.type(), o.mt(),
                                o.size(), w[0], w[1]));
                    }
                }
            }
            var layout = target.layout();
            var memory = target.memory();
            long link = layout.offset("MethodTable", "EEClassOrCanonMT");
            long back = layout.offset("EEClass", "MethodTable");
            long canonBit = layout.constant("method_table.eeclass_or_canon_mt.canon_bit");
            Map<Long, Boolean> valid = new HashMap<>();
            for (Map.Entry<Long, long[]> e : walked.entrySet()) {
                if (listed.contains(e.getKey())) {
                    continue;
                }
                long mt = e.getValue()[0];
                String type = mt == freeMt ? "Free" : names.getOrDefault(mt, String.format(Locale.ROOT, "Unknown (MethodTable: 0x%x)", mt));
                extras++;
                extrasByType.merge(type, 1L, Long::sum);
                if (mt != freeMt && !valid.computeIfAbsent(mt, m -> realMethodTable(memory, m, link, back, canonBit))) {
                    if (badExtraCount++ < SHOWN) {
                        badExtras.add(String.format(Locale.ROOT, "0x%x: not in the list, and its MethodTable 0x%x is no real one", e.getKey(), mt));
                    }
                }
            }
            roots = RealRootsCheck.of(dump, live, folder);
        }
        return new Report(folder, live.size(), walked.size(), extras, missingCount, misreadCount, badExtraCount, missing, misread, badExtras, problems,
                extrasByType, roots);
    }

    /** EEClassOrCanonMT → (canonical MT →) EEClass, whose MethodTable field points back to the canonical MT. */
    private static boolean realMethodTable(io.clrheap.memory.Memory memory, long mt, long link, long back, long canonBit) {
        try {
            long e = memory.readPointer(mt + link);
            long canonical = mt;
            if ((e & canonBit) != 0) {
                canonical = e & ~1L;
                e = memory.readPointer(canonical + link);
            }
            return memory.readPointer(e + back) == canonical;
        } catch (RuntimeException missing) {
            return false;
        }
    }
}
