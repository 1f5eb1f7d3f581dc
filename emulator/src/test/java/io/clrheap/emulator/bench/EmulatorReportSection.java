package io.clrheap.emulator.bench;

import io.clrheap.emulator.scenario.Scenario;
import java.util.Locale;
import org.openjdk.jmh.results.Result;

/**
 * The emulator's section of BENCHMARKS.md, from the two JMH results (milliseconds per shot) and the heap probe's runs.
 *
 * @param build    {@code buildScenario}
 * @param zeroFill {@code zeroFill}
 * @param probe    the heap probe: one build in a JVM of its own under the small -Xmx
 */
record EmulatorReportSection(Result<?> build, Result<?> zeroFill, HeapProbeRun probe) {

    private static final double MIB = 1 << 20;
    private static final double GIB = 1 << 30;

    String render() {
        long objects = probe.get("objects");
        long objectBytes = probe.get("objectBytes");
        long touched = probe.get("allocatedBytes");
        double buildMs = build.getScore();
        double fillMs = zeroFill.getScore();
        double ratio = buildMs / fillMs;
        long peak = probe.get("peakPoolSum");
        long afterGc = probe.get("largestAfterGc");
        long retained = probe.get("retained");
        StringBuilder s = new StringBuilder();
        s.append(EmulatorBenchmarkReport.HEADING).append("\n\n");
        s.append("Reproduce: `./clrheap bench` (JMH single shot: ").append(EmulatorBenchmarkReport.FORKS).append(" forks × (")
                .append(EmulatorBenchmarkReport.WARMUP_SHOTS).append(" warm-up + ").append(EmulatorBenchmarkReport.MEASURED_SHOTS)
                .append(" measured) shots per benchmark, forks run with `").append(EmulatorBenchmarkReport.MAX_HEAP).append(' ')
                .append(EmulatorBenchmarkReport.BASELINE_DIRECT).append("` (the baseline's arena memory counts against the direct-memory ")
                .append("limit; the heap probe below runs without it); ").append(Runtime.version()).append(", ")
                .append(Runtime.getRuntime().availableProcessors()).append(" CPUs).\n\n");
        Scenario scenario = BigHeapScenario.build();
        s.append(String.format("`RuntimeBuilder.build` of the scenario `%s` (.NET %d, %s GC, %d heaps, %d threads: %s), against the baseline: ",
                        scenario.name(), scenario.runtime().major(), scenario.gc().name().toLowerCase(Locale.ROOT), scenario.heaps(), scenario.threads(),
                        scenario.description()))
                .append("as many bytes as the build touched (`AddressSpace.allocatedBytes()`) taken as native memory in 64 KiB ")
                .append("chunks and zero-filled (`Arena.allocate`). The emulator takes its chunks from the C allocator too (`calloc`, ")
                .append("outside the Java heap and outside the JVM's direct-memory limit), so both reuse the memory a previous shot gave back.\n\n");
        s.append("| | time per shot | objects | bytes | throughput | ratio to zero-fill |\n|---|---|---|---|---|---|\n");
        s.append(String.format("| zero-fill (baseline) | %s | — | %,d zeroed (%.2f GiB) | %.2f GiB/s | 1.00 |%n",
                time(zeroFill), touched, touched / GIB, touched / GIB / (fillMs / 1000)));
        s.append(String.format("| build the heap | %s | %,d | %,d in objects (%.2f GiB); %,d touched | %,.0f objects/s | **%.1f** |%n%n",
                time(build), objects, objectBytes, objectBytes / GIB, touched, objects / (buildMs / 1000), ratio));
        s.append(String.format("Java heap of one build, in a JVM of its own started with `%s` (collectors: %s):%n%n",
                String.join(" ", probe.jvmOptions()), probe.values().get("gc")));
        s.append("| heap built | Java heap peak: every pool's peak summed (garbage included) | largest Java heap after a GC | kept by the built process after a full GC |\n");
        s.append("|---|---|---|---|\n");
        s.append(String.format("| %.2f GiB in objects | %.0f MiB (%.0f %% of the heap built) | %.0f MiB (%.0f %%) | %.0f MiB (%.0f %%) |%n%n",
                objectBytes / GIB, peak / MIB, 100.0 * peak / objectBytes, afterGc / MIB, 100.0 * afterGc / objectBytes,
                retained / MIB, 100.0 * retained / objectBytes));
        s.append(String.format("The probe's one build, cold (a fresh JVM: no JIT warm-up, native memory never mapped before), took %,.0f ms: "
                + "the JMH shots above are warm.%n%n",
                probe.get("buildNanos") / 1e6));
        boolean heapMet = probe.succeeded() && peak * 4 < objectBytes;
        s.append(String.format("Aim: the peak Java heap far below the heap size (under a quarter of it). %s%n",
                heapMet ? String.format("Met: %.0f MiB for %.2f GiB.", peak / MIB, objectBytes / GIB) : "Not met in this run."));
        return s.toString();
    }

    private static String time(Result<?> r) {
        double error = r.getScoreError();
        return Double.isNaN(error) ? String.format("%,.0f ms", r.getScore()) : String.format("%,.0f ± %,.0f ms", r.getScore(), error);
    }
}
