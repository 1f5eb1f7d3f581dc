package io.clrheap.generator.materialize;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The main of the materialize helper process: a JVM that places an emulated process's memory at its own virtual
 * addresses, so that whatever reads process memory (the live walker, gdb) finds a runtime there.
 *
 * <p>{@code MaterializeHelper DIR [--for MILLIS]} reads {@code DIR/plan.tsv} ({@link MaterializedImage}) and maps
 * every range at its exact address with {@code mmap(MAP_FIXED_NOREPLACE | MAP_PRIVATE [| MAP_ANONYMOUS])}: the
 * runtime module from its file (so /proc/PID/maps names it), the rest anonymous, filled from {@code DIR/memory.bin}
 * (deleted once copied). Then it prints {@code READY PID RANGES BYTES} on stdout and waits: until its stdin closes,
 * a signal ends it, or MILLIS have passed. Whichever way it ends after READY, it deletes {@code DIR} (a shutdown
 * hook); before READY the folder stays its parent's, which may start another helper on it.
 *
 * <p>Nothing is ever mapped over the JVM's own memory: an address that is taken is refused with both ranges named,
 * exit code {@value #EXIT_ADDRESS_TAKEN} (the parent may try again in a JVM laid out elsewhere). Without JNA's
 * native part, exit code {@value #EXIT_NO_JNA}; a plan it cannot read or another failure, 1; bad arguments, 2.
 * Messages go to stderr, one line each, starting {@code clrheap materialize helper:}.
 */
public final class MaterializeHelper {

    public static final String READY = "READY";
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_ADDRESS_TAKEN = 3;
    public static final int EXIT_NO_JNA = 4;
    static final String SAYS = "clrheap materialize helper: ";

    /** An address the plan wants is already mapped in this process. */
    static final class AddressTaken extends Exception {
        AddressTaken(String message) {
            super(message);
        }
    }

    private MaterializeHelper() {
    }

    public static void main(String[] args) {
        if (!(args.length == 1 || args.length == 3 && args[1].equals("--for"))) {
            System.err.println(SAYS + "usage: MaterializeHelper DIR [--for MILLIS]");
            System.exit(EXIT_USAGE);
        }
        Path dir = Path.of(args[0]).toAbsolutePath();
        long forMillis = args.length == 3 ? Long.parseLong(args[2]) : 0;
        List<PlacedRange> ranges;
        try {
            ranges = MaterializedImage.readPlan(dir);
            MemoryPlacer.place(ranges, dir.resolve(MaterializedImage.MEMORY));
            Files.deleteIfExists(dir.resolve(MaterializedImage.MEMORY));
        } catch (AddressTaken e) {
            System.err.println(SAYS + e.getMessage());
            System.exit(EXIT_ADDRESS_TAKEN);
            return;
        } catch (LinkageError e) {
            // JNA's classes are missing, or its native library (libjnidispatch) cannot be loaded
            System.err.println(SAYS + "JNA is not usable here, so memory cannot be mapped at fixed addresses: " + e);
            System.exit(EXIT_NO_JNA);
            return;
        } catch (IOException | RuntimeException e) {
            System.err.println(SAYS + e.getMessage());
            System.exit(EXIT_FAILED);
            return;
        }
        // from READY on the folder is the helper's to remove (before, the parent's: it may try again with the same files)
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir), "materialize-cleanup"));
        long bytes = ranges.stream().mapToLong(PlacedRange::length).sum();
        System.out.println(READY + " " + ProcessHandle.current().pid() + " " + ranges.size() + " " + bytes);
        System.out.flush();
        Thread watcher = new Thread(MaterializeHelper::untilStdinCloses, "materialize-stdin");
        watcher.setDaemon(true);
        watcher.start();
        try {
            if (forMillis > 0) {
                Thread.sleep(forMillis);
            } else {
                watcher.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        System.exit(0);
    }

    private static void untilStdinCloses() {
        byte[] sink = new byte[256];
        try (InputStream in = System.in) {
            while (in.read(sink) >= 0) {
                // the parent writes nothing; it only closes
            }
        } catch (IOException e) {
            // closed under us: the same as EOF
        }
        System.exit(0);
    }

    static AddressTaken taken(PlacedRange r) {
        List<String> occupants = new ArrayList<>();
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            lines.forEach(line -> {
                int dash = line.indexOf('-');
                int space = line.indexOf(' ');
                long start = Long.parseUnsignedLong(line, 0, dash, 16);
                long end = Long.parseUnsignedLong(line, dash + 1, space, 16);
                if (Long.compareUnsigned(start, r.end()) < 0 && Long.compareUnsigned(r.start(), end) < 0) {
                    occupants.add(line.replaceAll(" +", " ").strip());
                }
            });
        } catch (IOException | UncheckedIOException e) {
            occupants.add("(/proc/self/maps unreadable: " + e.getMessage() + ")");
        }
        return new AddressTaken("cannot place " + r.describe() + " in process " + ProcessHandle.current().pid()
                + ": the address is taken by " + (occupants.isEmpty() ? "a mapping (the kernel did not place it there)" : String.join("; ", occupants)));
    }

    /** Deletes {@code dir} and everything in it; what cannot be deleted stays (a shutdown hook has nobody to tell). */
    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // best effort
        }
    }
}
