package io.clrheap.golden.real;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real dump of golden/real/ opened and walked once per test run, with its ground-truth files parsed: the test
 * fixture of the real-dump tests. (The core stays xz-compressed in the repository; ElfCore decompresses it once
 * to a cache file beside it.)
 */
final class RealDump {

    /** The folders whose runtime module headers are in the dump (net8-nomodule needs --module). */
    static final List<String> WALKABLE = List.of("net8-svr", "net9-wks", "net9-withheap", "net9-svr", "net10-svr", "net10-small", "net10-compact");
    /** The v2 folders, with roots, handles, GC events and allocation contexts. */
    static final List<String> V2 = List.of("net8-svr", "net9-wks", "net10-svr", "net10-compact");

    private static final Map<String, RealDump> CACHE = new ConcurrentHashMap<>();
    private static final Pattern FIELD = Pattern.compile("\\b(label|addr|mt|size|gen)=(\\S+)");

    final String name;
    final Path folder;
    final ElfCore core;
    final Target target;
    final DiscoveredHeap heap;
    final Map<Long, WalkedObject> walked = new HashMap<>();
    final List<Problem> problems = new ArrayList<>();

    record WalkedObject(long address, long mt, long size, Region region) {
    }

    record LiveObject(long address, long size, long mt, String type) {
    }

    /** An OBJ or GARBAGE line of selfreport.txt. */
    record Reported(String label, long address, long mt, long size, long generation) {
    }

    static Path root() {
        // tests run in the golden module's directory; the dumps are in its real/ folder
        return Path.of("real");
    }

    static RealDump of(String name) {
        return CACHE.computeIfAbsent(name, RealDump::new);
    }

    private RealDump(String name) {
        this.name = name;
        this.folder = root().resolve(name);
        try {
            this.core = ElfCore.open(folder.resolve("core.xz"));
            this.target = new TargetOpener(ProfileLoader.builtIn()).open(core, core.mappedFiles(), Optional.empty());
        } catch (Exception e) {
            throw new IllegalStateException("cannot open " + folder + ": " + e.getMessage(), e);
        }
        this.heap = new HeapDiscovery(target).discover();
        problems.addAll(heap.problems());
        new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT).walk(new io.clrheap.walker.walk.ObjectVisitor() {
            @Override
            public void object(long address, long mt, long size, Region region) {
                walked.put(address, new WalkedObject(address, mt, size, region));
            }

            @Override
            public void problem(Problem problem) {
                problems.add(problem);
            }
        });
    }

    List<String> lines(String file) {
        try (Stream<String> s = Files.lines(folder.resolve(file))) {
            return s.filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    boolean has(String file) {
        return Files.exists(folder.resolve(file));
    }

    List<LiveObject> liveObjects() {
        List<LiveObject> live = new ArrayList<>();
        for (String line : lines("live-objects.txt")) {
            String[] t = line.split(" ", 4);
            live.add(new LiveObject(hex(t[0]), Long.parseLong(t[1]), hex(t[2]), t.length > 3 ? t[3] : ""));
        }
        return live;
    }

    List<Reported> reported(String kind) {
        List<Reported> out = new ArrayList<>();
        for (String line : lines("selfreport.txt")) {
            if (!line.startsWith(kind + " ")) {
                continue;
            }
            Map<String, String> f = new HashMap<>();
            Matcher m = FIELD.matcher(line);
            while (m.find()) {
                f.putIfAbsent(m.group(1), m.group(2));
            }
            out.add(new Reported(f.get("label"), hex(f.get("addr")), hex(f.get("mt")), Long.parseLong(f.get("size")),
                    f.containsKey("gen") ? Long.parseLong(f.get("gen")) : -1));
        }
        return out;
    }

    static long hex(String s) {
        return Long.parseUnsignedLong(s.startsWith("0x") ? s.substring(2) : s, 16);
    }
}
