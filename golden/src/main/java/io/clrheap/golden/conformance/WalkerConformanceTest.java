package io.clrheap.golden.conformance;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.answer.AnswerKeyWriter;
import io.clrheap.generator.bundle.BundleInfo;
import io.clrheap.generator.bundle.BundleWriter;
import io.clrheap.conformance.Comparison;
import io.clrheap.conformance.WalkerOutput;
import io.clrheap.generator.elf.ElfCoreWriter;
import io.clrheap.generator.minidump.MinidumpWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite for heap walkers on the JVM: extend this class, supply {@link #walk}, and JUnit runs one
 * dynamic test per fixture — each built from a scenario, written as a dump file, and compared with its answer key
 * (missing and extra objects, wrong MethodTables and sizes). A failure says which mistake the fixture is there to
 * catch.
 *
 * <pre>{@code
 * class MyWalkerConformanceTest extends WalkerConformanceTest {
 *     @Override
 *     protected List<WalkedObject> walk(Path dump) throws Exception {
 *         return MyWalker.open(dump).objects().map(o -> new WalkedObject(o.address(), o.methodTable(), o.size())).toList();
 *     }
 * }
 * }</pre>
 */
public abstract class WalkerConformanceTest {

    /** An object your walker found: its address, its MethodTable and its size (unaligned, as SOS reports it). */
    public record WalkedObject(long address, long methodTable, long size) {
    }

    /** Which file a fixture is given to the walker as. */
    public enum Format {
        ELF(".core"), MINIDUMP(".dmp"), BUNDLE(BundleWriter.SUFFIX);

        final String suffix;

        Format(String suffix) {
            this.suffix = suffix;
        }
    }

    @TempDir
    Path fixtures;

    /** The objects your walker finds in {@code dump}, in any order. */
    protected abstract List<WalkedObject> walk(Path dump) throws Exception;

    /** The dump format your walker reads (default: ELF cores). */
    protected Format format() {
        return Format.ELF;
    }

    /** The scenarios to check against (default: every built-in scenario but the large ones made for measurements, on its own runtime and GC flavour). */
    protected List<Scenario> scenarios() {
        return Scenarios.corpus();
    }

    @TestFactory
    Stream<DynamicTest> conformance() {
        return scenarios().stream().map(s -> DynamicTest.dynamicTest(s.name() + ": " + s.description(), () -> check(s)));
    }

    private void check(Scenario scenario) throws Exception {
        Path dump = fixtures.resolve(scenario.name() + format().suffix);
        Path answer = fixtures.resolve(scenario.name() + ".answer");
        write(scenario, dump, answer);
        List<WalkerOutput.Listed> found = new ArrayList<>();
        for (WalkedObject o : walk(dump)) {
            found.add(new WalkerOutput.Listed(o.address(), o.methodTable(), o.size()));
        }
        found.sort((a, b) -> Long.compareUnsigned(a.address(), b.address()));
        Comparison.Result result = Comparison.objects(found, answer);
        if (!result.passed()) {
            Assertions.fail(String.format("%s: %,d difference%s (%s); the fixture is there to catch: %s%n  %s", scenario.name(),
                    result.differences(), result.differences() == 1 ? "" : "s", result.summary(), scenario.description(),
                    String.join("\n  ", result.first())));
        }
    }

    private void write(Scenario scenario, Path dump, Path answer) throws IOException {
        EmulatedRuntime process = new RuntimeBuilder().build(scenario);
        AnswerKeyWriter.write(process, answer);
        switch (format()) {
            case ELF -> ElfCoreWriter.write(process, dump);
            case MINIDUMP -> MinidumpWriter.write(new RuntimeBuilder().platform(Platform.WINDOWS).build(scenario), dump);
            case BUNDLE -> BundleWriter.write(process, BundleInfo.of(process, "conformance"), answer, dump);
        }
        if (!Files.isRegularFile(dump)) {
            throw new IOException("no fixture written at " + dump);
        }
    }
}
