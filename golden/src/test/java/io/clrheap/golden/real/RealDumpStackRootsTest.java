package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.graph.ObjectGraph;
import io.clrheap.walker.graph.Root;
import io.clrheap.walker.graph.ThreadScan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The conservative stack scan against the runtime's own roots on every real dump, Linux and Windows: every object the runtime
 * reported as a Stack root ({@code roots.txt}) is the target of one of our stack roots; every object of the runtime's
 * live list ({@code live-objects.txt}) is live by our roots; and what the scan keeps that the runtime does not is
 * counted (the false positives docs/reference/object-graph.md states).
 */
class RealDumpStackRootsTest {

    private static final Map<String, DumpSession> SESSIONS = new ConcurrentHashMap<>();
    private static final List<String> WINDOWS = List.of("net8-windows-svr", "net10-windows-wks");

    static Stream<String> walkable() {
        return Stream.concat(RealDump.WALKABLE.stream(), WINDOWS.stream());
    }

    static Stream<String> foldersWithRoots() {
        return walkable().filter(name -> Files.isRegularFile(RealDump.root().resolve(name).resolve("roots.txt")));
    }

    private static DumpSession session(String name) {
        return SESSIONS.computeIfAbsent(name, n -> {
            Path folder = RealDump.root().resolve(n);
            Path dump = Files.isRegularFile(folder.resolve("core.xz")) ? folder.resolve("core.xz") : folder.resolve("dump.dmp.xz");
            try {
                return Dumps.open(dump);
            } catch (Exception e) {
                throw new IllegalStateException("cannot open " + dump + ": " + e.getMessage(), e);
            }
        });
    }

    static ObjectGraph graph(String name) {
        return session(name).graph();
    }

    @AfterAll
    static void close() throws IOException {
        for (DumpSession s : SESSIONS.values()) {
            s.close();
        }
        SESSIONS.clear();
    }

    private static List<String> lines(String name, String file) {
        try (Stream<String> s = Files.lines(RealDump.root().resolve(name).resolve(file))) {
            return s.filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RealDump.LiveObject liveObject(String line) {
        String[] t = line.split(" ", 4);
        return new RealDump.LiveObject(RealDump.hex(t[0]), Long.parseLong(t[1]), RealDump.hex(t[2]), t.length > 3 ? t[3] : "");
    }

    /** What the section 5 table of docs/reference/object-graph.md states for one dump, measured. */
    record Precision(long runtimeLive, long ours, long notLive, long beyond, String runtimeStack, String found, String threadHeld) {
        String row(String name) {
            return String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %s | %s | %s |", name, runtimeLive, ours, notLive, beyond, runtimeStack, found,
                    threadHeld);
        }
    }

    static Precision measure(String name) {
        ObjectGraph g = graph(name);
        HeapGraph graph = g.graph();
        BitSet live = g.live();
        Set<Long> runtimeLive = new HashSet<>();
        long notLive = 0;
        for (String line : lines(name, "live-objects.txt")) {
            long address = liveObject(line).address();
            runtimeLive.add(address);
            if (!g.isLive(live, address)) {
                notLive++;
            }
        }
        long beyond = 0;
        for (int i = live.nextSetBit(0); i >= 0; i = live.nextSetBit(i + 1)) {
            if (!runtimeLive.contains(graph.address(i))) {
                beyond++;
            }
        }
        if (!Files.isRegularFile(RealDump.root().resolve(name).resolve("roots.txt"))) {
            return new Precision(runtimeLive.size(), live.cardinality(), notLive, beyond, "–", "–", "–");
        }
        Set<Long> ours = threadHeld(g);
        Set<Long> runtime = runtimeStackObjects(name, graph);
        long found = runtime.stream().filter(ours::contains).count();
        return new Precision(runtimeLive.size(), live.cardinality(), notLive, beyond, String.format(Locale.ROOT, "%,d", runtime.size()),
                String.format(Locale.ROOT, "%,d", found), String.format(Locale.ROOT, "%,d", ours.size()));
    }

    /** The objects the walker's thread roots (stack slots, registers, thread-static arrays) hold. */
    private static Set<Long> threadHeld(ObjectGraph g) {
        Set<Long> held = new HashSet<>();
        for (Root r : g.roots()) {
            if (r.stack() != null) {
                held.add(r.target());
            }
        }
        return held;
    }

    /** The objects the runtime reported as Stack roots (an interior pointer's containing object), null slots left out. */
    private static Set<Long> runtimeStackObjects(String name, HeapGraph graph) {
        Set<Long> objects = new HashSet<>();
        for (String line : lines(name, "roots.txt")) {
            String[] f = line.split("\\s+");
            if (f[1].equals("Stack") && Long.decode(f[4]) != 0) {
                int o = graph.objectHolding(Long.decode(f[4]));
                objects.add(o < 0 ? Long.decode(f[4]) : graph.address(o));
            }
        }
        return objects;
    }

    /** The precision table of docs/reference/object-graph.md section 5 is what the dumps measure, row by row. */
    @ParameterizedTest
    @MethodSource("walkable")
    void theDocumentedPrecisionIsWhatTheDumpMeasures(String name) throws IOException {
        List<String> rows = Files.readAllLines(Path.of("../docs/reference/object-graph.md")).stream()
                .filter(l -> l.startsWith("| " + name + " |")).toList();
        assertThat(rows).as("%s's row in docs/reference/object-graph.md", name).hasSize(1);
        assertThat(rows.getFirst()).isEqualTo(measure(name).row(name));
    }

    @ParameterizedTest
    @MethodSource("walkable")
    void everyManagedThreadWithAnOsThreadInTheDumpIsScanned(String name) {
        ObjectGraph g = graph(name);
        assertThat(g.threads()).as("managed threads").isNotEmpty();
        for (ThreadScan t : g.threads()) {
            if (t.scanned()) {
                assertThat(Long.compareUnsigned(t.stackEnd(), t.rsp())).as("%s: the stack ends above rsp", t.thread().describe()).isPositive();
                assertThat(t.words()).as("%s: words scanned", t.thread().describe()).isEqualTo((t.stackEnd() - ((t.rsp() + 7) & ~7L)) / 8);
            }
        }
        assertThat(g.threads().stream().filter(ThreadScan::scanned).count()).as("%s: scanned threads", name)
                .isEqualTo(g.threads().stream().filter(t -> t.thread().osId() != 0).count());
    }

    @ParameterizedTest
    @MethodSource("foldersWithRoots")
    void everyObjectTheRuntimeNamedAsAStackRootIsATargetOfOurStackRoots(String name) {
        ObjectGraph g = graph(name);
        HeapGraph graph = g.graph();
        Set<Long> ours = threadHeld(g);
        List<String> missing = new ArrayList<>();
        for (long object : runtimeStackObjects(name, graph)) {
            int o = graph.indexOf(object);
            if (!ours.contains(object) && !(o >= 0 && graph.frozen(o))) {
                missing.add(String.format("0x%x%s", object, o < 0 ? " (no object there)" : ""));
            }
        }
        assertThat(missing).as("%s: runtime stack root objects not held by a thread root of ours", name).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("walkable")
    void everyObjectOfTheRuntimesLiveListIsLive(String name) {
        ObjectGraph g = graph(name);
        BitSet live = g.live();
        List<String> missing = new ArrayList<>();
        Set<Long> runtimeLive = new HashSet<>();
        for (String line : lines(name, "live-objects.txt")) {
            RealDump.LiveObject o = liveObject(line);
            runtimeLive.add(o.address());
            if (!g.isLive(live, o.address())) {
                missing.add(String.format("0x%x %s", o.address(), o.type()));
            }
        }
        assertThat(missing).as("%s: live objects not live by our roots", name).isEmpty();
    }
}
