package io.clrheap.cli;

import io.clrheap.emulator.BuildEstimate;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Before a command builds a scenario: what the build will take ({@link BuildEstimate}) against what the machine has —
 * available physical memory for the emulated process's memory (native, not bounded by {@code -Xmx}), the JVM's free
 * heap for the ground truth, the usable disk where files go. A build that does not fit is refused before it starts,
 * with the numbers; {@code --force} builds anyway (except past the emulator's own memory budget, which it would hit).
 */
final class BuildCheck {

    /** Builds larger than this get their estimate printed as a note. */
    static final long NOTE_ABOVE = 256L << 20;

    /** What the machine has. Tests replace it ({@link #machine}). */
    interface Machine {
        /** Physical memory a new allocation can take, and where that figure comes from. */
        Available memory();

        /** Java heap not yet used, up to -Xmx. */
        Available heap();

        /** Usable bytes on the file system that holds {@code folder} (or its nearest existing parent). */
        Available disk(Path folder);
    }

    /** An amount and where it was read. */
    record Available(long bytes, String source) {
    }

    /** One resource: needed, available, and whether --force may override a shortfall. */
    record Need(String what, long needed, String detail, Available available, boolean forcible) {
        boolean fits() {
            return needed <= available.bytes();
        }

        String line() {
            return String.format(Locale.ROOT, "  %-15s %s needed%s, %s available (%s)%s", what, BuildEstimate.bytes(needed),
                    detail.isEmpty() ? "" : " (" + detail + ")", BuildEstimate.bytes(available.bytes()), available.source(),
                    fits() ? "" : ": too much");
        }
    }

    static Machine machine = new RealMachine();

    private BuildCheck() {
    }

    /**
     * What a command that builds {@code s} {@code builds} times at once (generate with a minidump: 2) and writes
     * {@code diskBytes} into {@code folder} (null: writes nothing) needs, resource by resource.
     */
    static List<Need> needs(BuildEstimate e, int builds, long diskBytes, String diskDetail, Path folder) {
        return needs(e, builds, diskBytes, diskDetail, folder, 0);
    }

    /**
     * As {@link #needs(BuildEstimate, int, long, String, Path)}, in a process that already holds {@code heldBytes} of
     * memory an earlier build gave back: the C allocator keeps freed chunks for the next build (NativeChunks), so the
     * machine's available memory no longer counts them, though this build will use them again.
     */
    static List<Need> needs(BuildEstimate e, int builds, long diskBytes, String diskDetail, Path folder, long heldBytes) {
        List<Need> needs = new ArrayList<>();
        Available memory = machine.memory();
        if (heldBytes > 0) {
            memory = new Available(memory.bytes() + heldBytes, memory.source() + " + " + BuildEstimate.bytes(heldBytes)
                    + " this process holds from the batch's earlier fixtures");
        }
        needs.add(new Need("process memory", e.memoryBytes(builds), builds == 1 ? "" : builds + " builds at once", memory, true));
        needs.add(new Need("emulator budget", e.memoryBytes(), "one build",
                new Available(RuntimeBuilder.DEFAULT_MEMORY_BUDGET, "the most a build may write"), false));
        needs.add(new Need("Java heap", builds * e.groundTruthBytes(), "ground truth", machine.heap(), true));
        if (folder != null) {
            needs.add(new Need("disk", diskBytes, diskDetail, machine.disk(folder), true));
        }
        return needs;
    }

    /**
     * Checks {@code needs}: prints the estimate as a note on {@code note} (when not null) for a large build, and
     * returns the refusal message when something does not fit (and {@code force} does not override it).
     */
    static Optional<String> check(String command, Scenario s, BuildEstimate e, List<Need> needs, boolean force, PrintWriter note) {
        boolean refused = needs.stream().anyMatch(n -> !n.fits() && (!force || !n.forcible()));
        if (refused) {
            StringBuilder m = new StringBuilder(String.format(Locale.ROOT,
                    "clrheap %s: scenario %s needs more than this machine has, so it is not built (estimated from the scenario: %s):%n",
                    command, s.name(), e));
            needs.forEach(n -> m.append(n.line()).append(System.lineSeparator()));
            boolean overBudget = needs.stream().anyMatch(n -> !n.fits() && !n.forcible());
            m.append(overBudget ? "fewer objects, or smaller ones, would fit (--force cannot lift the emulator's budget)"
                    : "fewer objects would fit; --force builds anyway");
            return Optional.of(m.toString());
        }
        if (note != null && needs.stream().anyMatch(n -> n.needed() > NOTE_ABOVE)) {
            note.printf(Locale.ROOT, "clrheap %s: a large build: %s%n", command, e);
            needs.stream().filter(n -> !n.fits()).forEach(n -> note.println("clrheap " + command + ": building anyway (--force):" + n.line()));
            note.flush();
        }
        return Optional.empty();
    }

    /** The machine as /proc, the JVM and the file system tell it. */
    static final class RealMachine implements Machine {
        @Override
        public Available memory() {
            long available = -1;
            String source = "";
            try {
                for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                    if (line.startsWith("MemAvailable:")) {
                        available = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                        source = "MemAvailable in /proc/meminfo";
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not Linux: the JVM's figure below
            }
            if (available < 0 && ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                available = os.getFreeMemorySize();
                source = "free physical memory, as the JVM reads it";
            }
            if (available < 0) {
                return new Available(Long.MAX_VALUE, "unknown");
            }
            // a container's memory limit (cgroup v2), when it is lower
            try {
                String max = Files.readString(Path.of("/sys/fs/cgroup/memory.max")).strip();
                if (!max.equals("max")) {
                    long room = Long.parseLong(max) - Long.parseLong(Files.readString(Path.of("/sys/fs/cgroup/memory.current")).strip());
                    if (room < available) {
                        available = Math.max(0, room);
                        source = "the cgroup's memory.max less memory.current";
                    }
                }
            } catch (IOException | RuntimeException e) {
                // no cgroup v2 limit
            }
            return new Available(available, source);
        }

        @Override
        public Available heap() {
            Runtime r = Runtime.getRuntime();
            long used = r.totalMemory() - r.freeMemory();
            return new Available(r.maxMemory() - used, "-Xmx " + BuildEstimate.bytes(r.maxMemory()) + " less what is in use");
        }

        @Override
        public Available disk(Path folder) {
            Path p = folder.toAbsolutePath();
            while (p != null && !Files.exists(p)) {
                p = p.getParent();
            }
            if (p == null) {
                return new Available(Long.MAX_VALUE, "unknown");
            }
            try {
                return new Available(Files.getFileStore(p).getUsableSpace(), "usable on the file system of " + p);
            } catch (IOException e) {
                return new Available(Long.MAX_VALUE, "unknown: " + e.getMessage());
            }
        }
    }
}
