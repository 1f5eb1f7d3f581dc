package io.clrheap.conformance.corpus;

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

/**
 * A real golden folder (golden/real/NAME, or one {@code clrheap capture} wrote) checked the way the real-dump tests
 * check it: the walker runs on {@code core.xz} and must find every object of {@code live-objects.txt} (the runtime's
 * own list) with its MethodTable and size, meet no problem, and every object it finds beyond the list (dead ones: the
 * list holds live objects only) must be free or have a real MethodTable (its EEClass points back to it).
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
            List<String> missing, List<String> misread, List<String> badExtras, List<String> problems, Map<String, Long> extrasByType) {

        public boolean passed() {
            return missingCount == 0 && misreadCount == 0 && badExtraCount == 0 && problems.isEmpty();
        }
    }

    /** Reads {@code address size mt type} lines; '#' lines and blank ones are skipped. */
    public static List<LiveObject> readLiveObjects(Path file) throws IOException {
        List<LiveObject> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] t = line.trim().split(" ", 4);
                try {
                    out.add(new LiveObject(hex(t[0]), Long.parseLong(t[1]), hex(t[2]), t.length > 3 ? t[3] : ""));
                } catch (RuntimeException e) {
                    throw new IOException(file + " line " + n + ": not 'address size mt type': " + line);
                }
            }
        }
        return out;
    }

    private static long hex(String s) {
        return Long.parseUnsignedLong(s.startsWith("0x") ? s.substring(2) : s, 16);
    }

    /** Walks {@code folder/core.xz} (or {@code core}) and compares it with {@code folder/live-objects.txt}. */
    public static Report check(Path folder, Optional<Path> module) throws Exception {
        Path coreFile = Files.exists(folder.resolve("core.xz")) ? folder.resolve("core.xz") : folder.resolve("core");
        List<LiveObject> live = readLiveObjects(folder.resolve("live-objects.txt"));
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
        try (DumpSession dump = Dumps.open(coreFile, OpenOptions.DEFAULT.withModule(module.orElse(null)))) {
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
        }
        return new Report(folder, live.size(), walked.size(), extras, missingCount, misreadCount, badExtraCount, missing, misread, badExtras, problems,
                extrasByType);
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
