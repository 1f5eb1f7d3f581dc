package io.clrheap.cli;

import io.clrheap.walker.Dumps;
import io.clrheap.walker.DumpSession;
import io.clrheap.dac.DacEngine;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.DacHeap;
import io.clrheap.dac.DacLocator;
import io.clrheap.dac.walk.DacWalkKind;
import io.clrheap.generator.answer.AddressOrderedObjects;
import io.clrheap.conformance.Fixture;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code conform --dac-reference DUMP}: a real dump whose answer key is what Microsoft's DAC reads in it (the SOS
 * path: every object and free object with its MethodTable and size), written as an answer key folder
 * ({@code objects.tsv}, {@code dumpheap-stat.txt}, {@code fixture.txt}) so the conformance runner checks a walker against it.
 */
final class DacReference {

    private DacReference() {
    }

    /**
     * Walks {@code dump} with the DAC and writes its answers into {@code work/NAME.answer/}.
     *
     * @throws DacException when the DAC cannot be had for the dump's build, crashes, or fails a call (a reference must be whole)
     */
    static Fixture fixture(Path dump, Path dac, Path work) throws IOException, InterruptedException, DacException, TargetException {
        try (DumpSession opened = Dumps.open(dump)) {
            Target target = opened.target();
            DacEngine engine = new DacLocator(System.getenv()).engineFor(Optional.ofNullable(dac), target);
            AddressOrderedObjects objects = new AddressOrderedObjects();
            FirstSeenStat stat = new FirstSeenStat();
            DacHeap heap = engine.walk(dump, target, DacWalkKind.SOS, (address, mt, size, region) -> {
                objects.add(address, mt, size, region);
                if (mt != 0) {
                    stat.object(address, mt, size);
                }
            }, DacEngine.DEFAULT_TIMEOUT);
            if (heap.failureCount() > 0) {
                throw new DacException(dump + ": the DAC failed " + heap.failureCount() + " call(s), the first " + heap.failures().getFirst()
                        + ": it cannot be the reference");
            }
            // real dumps are often all called core.xz: the folder names them
            Path parent = dump.toAbsolutePath().getParent();
            String name = (parent == null || parent.getFileName() == null ? "" : parent.getFileName() + "/") + dump.getFileName();
            Path answer = Files.createTempDirectory(work, "reference-").resolve("dump.answer");
            Files.createDirectories(answer);
            TypeNames names = opened.typeNames().orElse(TypeNames.of(heap.typeNames()));
            long free = heap.freeMethodTable();
            try (BufferedWriter out = Files.newBufferedWriter(answer.resolve("objects.tsv"), StandardCharsets.UTF_8)) {
                out.write("address\tmt\tsize\tgeneration\theap\tkind\ttype\n");
                StringBuilder line = new StringBuilder();
                objects.replay((address, mt, size, region) -> {
                    line.setLength(0);
                    line.append("0x").append(Long.toHexString(address)).append("\t0x").append(Long.toHexString(mt)).append('\t').append(size)
                            .append('\t').append(region == null ? "unknown" : region.kind().id()).append('\t').append(region == null ? -1 : region.heap())
                            .append('\t').append(mt == free ? "free" : "object").append('\t').append(names.display(mt, free)).append('\n');
                    try {
                        out.write(line.toString());
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause();
            }
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(answer.resolve("dumpheap-stat.txt"), StandardCharsets.UTF_8))) {
                stat.toDumpHeapStat().print(out, names, free);
            }
            String about = String.format("%s: a real .NET %s dump; the reference is Microsoft's DAC %s (SOS path), %,d objects",
                    name, target.version(), engine.build(), heap.objectCount());
            Files.writeString(answer.resolve("fixture.txt"), about + "\n", StandardCharsets.UTF_8);
            return new Fixture(name, about, dump, answer);
        }
    }
}
