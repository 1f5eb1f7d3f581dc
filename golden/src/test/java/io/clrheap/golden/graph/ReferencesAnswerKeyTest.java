package io.clrheap.golden.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.answer.AnswerKeyWriter;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.memory.Memory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The answer key's object graph agrees with the bytes: for every everyday built-in scenario on every runtime and GC
 * flavour, each object's references are decoded here from the process memory — the GC descriptor before its
 * MethodTable, read as gcdesc.h's go_through_object reads it
 * (https://github.com/dotnet/runtime/blob/main/src/coreclr/gc/gcdesc.h), with a decoder of this test's own — and
 * equal {@code references.tsv}; every reference and root target is an object of {@code objects.tsv}; {@code live.tsv}
 * is the closure of the roots that keep objects alive and of the frozen segments' objects over those references. Each scenario is built once.
 */
class ReferencesAnswerKeyTest {

    /** Root kinds that keep their target alive (docs/answer-key.md). */
    private static final Set<String> STRONG = Set.of("strong", "pinned", "async-pinned", "sized-ref", "refcounted", "variable", "finalizer", "stack");

    static Stream<Arguments> scenarios() {
        return Scenarios.everyday().stream().flatMap(s -> Stream.of(RuntimeVersion.values())
                .flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(s.name(), v, gc))));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void theReferencesOfTheAnswerKeyAreTheReferencesInMemory(String name, RuntimeVersion version, GcFlavor gc, @TempDir Path dir) throws Exception {
        Scenario scenario = Scenarios.named(name).orElseThrow().on(version, gc);
        EmulatedRuntime runtime = new RuntimeBuilder().build(scenario);
        Path key = dir.resolve("answer");
        AnswerKeyWriter.write(runtime, key);
        Memory memory = runtime.memory();
        Set<Long> objects = new HashSet<>();
        List<String> decoded = new ArrayList<>();
        List<String> objectLines = Files.readAllLines(key.resolve("objects.tsv"), StandardCharsets.UTF_8);
        for (String line : objectLines.subList(1, objectLines.size())) {
            String[] f = line.split("\t");
            if (!f[5].equals("object")) {
                continue;
            }
            long address = Long.parseUnsignedLong(f[0].substring(2), 16);
            long mt = Long.parseUnsignedLong(f[1].substring(2), 16);
            objects.add(address);
            for (long offset : GcDescDecoder.offsets(memory, mt, Long.parseLong(f[2]))) {
                long to = memory.readLong(address + offset);
                if (to != 0) {
                    decoded.add(String.format("0x%x\t%d\t0x%x", address, offset, to));
                }
            }
        }
        List<String> references = lines(key.resolve("references.tsv"), "from\toffset\tto");
        assertThat(references).isEqualTo(decoded);
        assertThat(references).as("every everyday scenario has references").isNotEmpty();
        List<String> roots = lines(key.resolve("roots.tsv"), "kind\troot\tobject\tflags\tthread");
        for (String line : roots) {
            assertThat(objects).as(line).contains(Long.parseUnsignedLong(line.split("\t")[2].substring(2), 16));
        }
        for (String line : references) {
            assertThat(objects).as(line).contains(Long.parseUnsignedLong(line.split("\t")[2].substring(2), 16));
        }
        assertThat(lines(key.resolve("live.tsv"), "address")).isEqualTo(live(roots, references, runtime));
    }

    /**
     * The closure of the keeping roots (stacks too) over the references, a dependent handle's secondary with its primary;
     * then of the still unreached finalization registrations.
     */
    private static List<String> live(List<String> roots, List<String> references, EmulatedRuntime runtime) {
        java.util.Map<Long, List<Long>> edges = new java.util.HashMap<>();
        for (String line : references) {
            String[] f = line.split("\t");
            edges.computeIfAbsent(Long.parseUnsignedLong(f[0].substring(2), 16), k -> new ArrayList<>()).add(Long.parseUnsignedLong(f[2].substring(2), 16));
        }
        // a dependent handle's secondary is the primary's edge for liveness
        runtime.groundTruth().handles().stream().filter(h -> h.secondary() != 0)
                .forEach(h -> edges.computeIfAbsent(h.target(), k -> new ArrayList<>()).add(h.secondary()));
        Set<Long> live = new HashSet<>();
        java.util.ArrayDeque<Long> pending = new java.util.ArrayDeque<>();
        for (String line : roots) {
            String[] f = line.split("\t");
            long target = Long.parseUnsignedLong(f[2].substring(2), 16);
            if (STRONG.contains(f[0]) && live.add(target)) {
                pending.add(target);
            }
        }
        // every frozen segment's object is alive (never collected): docs/answer-key.md
        runtime.groundTruth().forEachObject((address, mt, size, generation, heap, kind) -> {
            if (generation == -1 && kind == io.clrheap.emulator.truth.GroundTruth.Kind.OBJECT && live.add(address)) {
                pending.add(address);
            }
        });
        close(live, pending, edges);
        // then what is registered for finalization and still unreached, kept for its finalizer with what it reaches
        for (String line : roots) {
            String[] f = line.split("\t");
            long target = Long.parseUnsignedLong(f[2].substring(2), 16);
            if (f[0].equals("finalizable") && live.add(target)) {
                pending.add(target);
            }
        }
        close(live, pending, edges);
        return live.stream().sorted(Long::compareUnsigned).map(a -> "0x" + Long.toHexString(a)).toList();
    }

    private static void close(Set<Long> live, java.util.ArrayDeque<Long> pending, java.util.Map<Long, List<Long>> edges) {
        while (!pending.isEmpty()) {
            for (long to : edges.getOrDefault(pending.poll(), List.of())) {
                if (live.add(to)) {
                    pending.add(to);
                }
            }
        }
    }

    private static List<String> lines(Path file, String header) throws Exception {
        List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(all.get(0)).isEqualTo(header);
        return all.subList(1, all.size());
    }
}
