package io.clrheap.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.dac.DacCrashException;
import io.clrheap.dac.DacEngine;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.DacHeap;
import io.clrheap.dac.walk.DacWalkKind;
import io.clrheap.generator.answer.AddressOrderedObjects;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.sos.SosEeHeap;
import io.clrheap.layout.GcFlavor;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.runtime.Target;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code walk DUMP --engine dac | dac-heapwalk}: the walk's reports, printed from Microsoft's DAC's answers in the
 * walker's own formats. Exit codes: 0 the DAC answered every call; 1 a DAC call failed or the DAC crashed (the call
 * is named); 3 no DAC for the dump's build.
 */
final class DacWalk {

    /** Who reads the heap. */
    enum Engine {
        WALKER, DAC, DAC_HEAPWALK;

        static Optional<Engine> of(String name) {
            return switch (name.toLowerCase(Locale.ROOT)) {
                case "walker" -> Optional.of(WALKER);
                case "dac" -> Optional.of(DAC);
                case "dac-heapwalk" -> Optional.of(DAC_HEAPWALK);
                default -> Optional.empty();
            };
        }

        DacWalkKind kind() {
            return this == DAC_HEAPWALK ? DacWalkKind.HEAPWALK : DacWalkKind.SOS;
        }
    }

    enum Report { STAT, OBJECTS, EEHEAP, VERIFY }

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean quiet;
    private final boolean json;

    DacWalk(PrintWriter out, PrintWriter err, boolean quiet, boolean json) {
        this.out = out;
        this.err = err;
        this.quiet = quiet;
        this.json = json;
    }

    /**
     * @param given type names given by the user or carried by the fixture, or null: then the names the DAC read from
     *              the modules' metadata
     */
    int run(Engine engine, DacOption option, Path dump, Target target, Report report, TypeNames given) throws IOException, InterruptedException {
        return run(engine, option, dump, 0, target, report, given);
    }

    /** As above, for the running process {@code pid} when it is not 0 ({@code dump} then only names it in messages). */
    int run(Engine engine, DacOption option, Path dump, int pid, Target target, Report report, TypeNames given)
            throws IOException, InterruptedException {
        DacEngine dac;
        try {
            dac = option.engineFor(target);
        } catch (DacException e) {
            err.println("clrheap walk: " + e.getMessage());
            return WalkCommand.EXIT_CANNOT_OPEN;
        }
        if (!quiet) {
            err.println("clrheap: " + DacOption.describe(dac) + ", " + (engine == Engine.DAC ? "the SOS path (ISOSDacInterface)"
                    : "its own heap walker (IDacDbiInterface::WalkHeap)") + ", in a child process");
        }
        FirstSeenStat stat = new FirstSeenStat();
        AddressOrderedObjects ordered = report == Report.OBJECTS ? new AddressOrderedObjects() : null;
        DacHeap heap;
        long start = System.nanoTime();
        try {
            io.clrheap.dac.DacObjectSink sink = (address, mt, size, region) -> {
                if (mt != 0) {
                    stat.object(address, mt, size);
                }
                if (ordered != null) {
                    ordered.add(address, mt, size, region);
                }
            };
            heap = pid != 0 ? dac.walkProcess(pid, target, engine.kind(), sink, DacEngine.DEFAULT_TIMEOUT)
                    : dac.walk(dump, target, engine.kind(), sink, DacEngine.DEFAULT_TIMEOUT);
        } catch (DacCrashException e) {
            err.println("clrheap walk: " + e.getMessage());
            return 1;
        } catch (DacException e) {
            err.println("clrheap walk: the DAC could not walk " + dump + ": " + e.getMessage());
            return 1;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        heap.namesCrash().ifPresent(crash -> err.println("clrheap: no type names from the DAC: after the walk, " + crash
                + " (GetMethodTableName follows MethodTable -> Module -> the assembly's metadata, which this dump does not hold in full)"));
        // the DAC's own names first: this engine shows what the DAC sees; others only where it has none
        TypeNames names = TypeNames.of(heap.typeNames()).orElse(given);
        long free = heap.freeMethodTable();
        switch (report) {
            case STAT -> {
                DumpHeapStat dumpheap = stat.toDumpHeapStat();
                if (json) {
                    ObjectNode root = dumpheap.toJson(names, free);
                    root.set("runtime", RuntimeJson.of(target)); // as the walker's report: the dump's build and its layout
                    ArrayNode problems = root.putArray("problems");
                    heap.failures().forEach(f -> problems.add("DAC call failed: " + f));
                    root.put("problemCount", heap.failureCount());
                    print(root);
                } else {
                    dumpheap.print(out, names, free);
                }
            }
            case OBJECTS -> {
                ObjectListPrinter printer = new ObjectListPrinter(out, json, names, free, null);
                ordered.replay(printer::object);
                printer.end();
            }
            case EEHEAP -> {
                SosEeHeap r = SosEeHeap.of(heap.asDiscoveredHeap(), target.gc() == GcFlavor.SERVER, h -> heap.generationStarts(h.index()));
                if (json) {
                    ObjectNode root = r.json();
                    root.set("runtime", RuntimeJson.of(target));
                    ArrayNode problems = root.putArray("problems");
                    heap.failures().forEach(f -> problems.add("DAC call failed: " + f));
                    print(root);
                } else {
                    out.print(r.text());
                out.flush();
                    heap.failures().forEach(f -> out.println("problem: DAC call failed: " + f));
                }
            }
            case VERIFY -> {
                if (json) {
                    ObjectNode root = JsonNodeFactory.instance.objectNode();
                    root.put("objects", heap.objectCount());
                    root.put("failedCalls", heap.failureCount());
                    ArrayNode list = root.putArray("calls");
                    heap.failures().forEach(f -> list.add(f.toString()));
                    root.put("failedReads", heap.failedReads());
                    ArrayNode reads = root.putArray("reads");
                    heap.firstFailedReads().forEach(reads::add);
                    ArrayNode notes = root.putArray("notes");
                    heap.notes().forEach(notes::add);
                    print(root);
                } else {
                    heap.failures().forEach(f -> out.println("DAC call failed: " + f));
                    heap.firstFailedReads().forEach(r -> out.println("read not in the dump: " + r));
                    heap.notes().forEach(n -> out.println("note: " + n));
                    out.printf("%,d objects from the DAC, %,d failed call%s, %,d read%s the dump could not answer%n", heap.objectCount(),
                            heap.failureCount(), heap.failureCount() == 1 ? "" : "s", heap.failedReads(), heap.failedReads() == 1 ? "" : "s");
                }
            }
        }
        out.flush();
        if (!quiet) {
            err.printf("clrheap: the DAC reported %,d objects in %,d ms; %,d failed call%s, %,d read%s the dump could not answer%n",
                    heap.objectCount(), millis, heap.failureCount(), heap.failureCount() == 1 ? "" : "s", heap.failedReads(),
                    heap.failedReads() == 1 ? "" : "s");
        }
        if (heap.failureCount() > 0 && report != Report.VERIFY) {
            err.printf("clrheap walk: %d DAC call%s failed (the first: %s): the report may miss objects; --verify lists them%n",
                    heap.failureCount(), heap.failureCount() == 1 ? "" : "s", heap.failures().getFirst());
        }
        return heap.failureCount() == 0 ? 0 : 1;
    }

    private void print(ObjectNode node) {
        try {
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
