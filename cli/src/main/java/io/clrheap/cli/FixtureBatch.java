package io.clrheap.cli;

import io.clrheap.emulator.BuildEstimate;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.generator.answer.AnswerKeyCheck;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureName;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import io.clrheap.generator.fixture.StagedFixture;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.runtime.TargetException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code clrheap generate}'s fixtures, one after the other in this JVM: each checked against the machine, built,
 * written under its {@link FixtureName}, and read back with the walker against its answer key (and the DAC with
 * {@code --check-dac}). A fixture that fails is reported and the batch goes on; the exit code is the highest of the
 * fixtures' ({@link FixtureOutcome#exitCode()}).
 *
 * @param formats  the files to write of each fixture
 * @param formatsChosen whether {@code --format} chose them: when not, a fixture whose build has no Windows layout is
 *                 written without its minidump (saying so); when so, its minidump is refused
 * @param folder   where to write them
 * @param force    build even when the estimate says the machine has too little
 * @param checkDac {@code --check-dac}: null for none, empty to find the DAC as {@code walk --engine dac} does
 * @param quiet    no progress on stderr (failures are still reported there)
 */
record FixtureBatch(Set<FixtureFormat> formats, Path folder, boolean force, String checkDac, boolean quiet, boolean formatsChosen) {

    /** Builds and writes every fixture of {@code fixtures}; what was written on {@code stdout}, progress on {@code err}. */
    int run(List<Scenario> fixtures, PrintWriter stdout, PrintWriter err) {
        long started = System.nanoTime();
        List<FixtureOutcome> outcomes = new ArrayList<>();
        // what the largest fixture built so far took: the C allocator keeps it for the next build (NativeChunks)
        long held = 0;
        for (int i = 0; i < fixtures.size(); i++) {
            if (i > 0) {
                // the last fixture's process memory (Arena.ofAuto, outside the Java heap) goes when the GC finds it
                // unreachable: collect now, so that the next estimate sees it released and processes do not pile up
                System.gc();
            }
            Scenario s = fixtures.get(i);
            String label = String.format(Locale.ROOT, "[%d/%d] %s %s %s", i + 1, fixtures.size(), s.name(), s.runtimeName(), s.gc().id());
            FixtureOutcome outcome = one(s, label, held, stdout, err);
            outcomes.add(outcome);
            if (outcome.built()) {
                held = Math.max(held, BuildEstimate.of(s).memoryBytes(formats.contains(FixtureFormat.MINIDUMP) ? 2 : 1));
            }
            stdout.flush();
            err.flush();
        }
        stdout.println(summary(outcomes, System.nanoTime() - started));
        return outcomes.stream().mapToInt(FixtureOutcome::exitCode).max().orElse(0);
    }

    /** {@code 8 fixtures: 7 agree with their answer key, 1 failed (...); 1,234 bytes written in 5.1 s}. */
    static String summary(List<FixtureOutcome> outcomes, long nanos) {
        long agree = outcomes.stream().filter(FixtureOutcome::agrees).count();
        List<String> failed = outcomes.stream().filter(o -> o.exitCode() != 0).map(o -> o.name() + " exit " + o.exitCode()).toList();
        long bytes = outcomes.stream().mapToLong(FixtureOutcome::bytes).sum();
        return String.format(Locale.ROOT, "%d fixture%s: %d agree%s with %s answer key, %d failed%s; %,d bytes written in %.1f s",
                outcomes.size(), outcomes.size() == 1 ? "" : "s", agree, agree == 1 ? "s" : "", agree == 1 ? "its" : "their", failed.size(),
                failed.isEmpty() ? "" : " (" + String.join(", ", failed) + ")", bytes, nanos / 1e9);
    }

    private FixtureOutcome one(Scenario s, String label, long held, PrintWriter stdout, PrintWriter err) {
        FixtureName name = FixtureName.of(s);
        long started = System.nanoTime();
        Set<FixtureFormat> formats = formatsChosen ? this.formats : FixtureWriter.withoutRefusedMinidump(s, this.formats, why -> {
            if (!quiet) {
                err.println("clrheap generate: " + label + ": no minidump (" + why + ")");
            }
        });
        var refusal = GenerateCommand.check("generate: " + label, s, formats, folder, force, quiet ? null : err, held);
        if (refusal.isPresent()) {
            err.println(refusal.get());
            return new FixtureOutcome(name, GenerateCommand.EXIT_INVALID_INPUT, 0, false);
        }
        // written under their names in a hidden folder, read back (and checked with the DAC), and only then moved into
        // place: an interrupted or failed run leaves nothing that looks like a finished fixture
        StagedFixture staged;
        try {
            FixtureProgress progress = quiet ? FixtureProgress.NONE : new CliProgress(err, label + ": ");
            staged = FixtureWriter.stage(s, name.toString(), formats, folder, ClrheapVersion.current(), progress);
        } catch (IllegalArgumentException e) {
            err.println("clrheap generate: " + label + ": " + e.getMessage());
            return new FixtureOutcome(name, GenerateCommand.EXIT_INVALID_INPUT, 0, false);
        } catch (IOException | UncheckedIOException e) {
            err.println("clrheap generate: " + label + ": cannot write " + name + " into " + folder + ": " + e.getMessage());
            return new FixtureOutcome(name, 1, 0, false);
        }
        try (staged) {
            List<Path> checked = staged.files();
            Path answer = checked.getLast();
            List<Path> dumps = checked.subList(0, checked.size() - 1);
            boolean agrees = readBack(dumps, answer, label, err);
            int code = agrees ? 0 : 1;
            if (checkDac != null && code == 0) {
                code = checkDac(dumps, answer, label, stdout, err);
            }
            // a fixture the check disagrees with is still complete: kept, with its verdict, for the one who looks into it
            List<Path> written = staged.commit();
            long bytes = 0;
            for (Path p : written) {
                long size = bytes(p);
                bytes += size;
                stdout.printf("wrote %s%s%n", p, Files.isDirectory(p) ? "/" : String.format(Locale.ROOT, " (%,d bytes)", size));
            }
            if (!quiet) {
                err.println(String.format(Locale.ROOT, "%s: wrote %d file%s and the answer key, %,d bytes, in %.1f s%s", label, dumps.size(),
                        dumps.size() == 1 ? "" : "s", bytes, (System.nanoTime() - started) / 1e9,
                        code == 0 ? "" : " — FAILED (exit " + code + ")"));
            }
            return new FixtureOutcome(name, code, bytes, agrees);
        } catch (IOException | UncheckedIOException e) {
            err.println("clrheap generate: " + label + ": " + e.getMessage());
            return new FixtureOutcome(name, 1, 0, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking " + name + " with the DAC", e);
        }
    }

    /** Each of {@code dumps} walked and compared with the answer key: the verdict as progress, a disagreement always. */
    private boolean readBack(List<Path> dumps, Path answer, String label, PrintWriter err) {
        boolean all = true;
        for (Path dump : dumps) {
            try (DumpSession session = Dumps.open(dump)) {
                AnswerKeyCheck.Result r = AnswerKeyCheck.check(session, answer);
                if (r.agrees()) {
                    if (!quiet) {
                        err.println(String.format(Locale.ROOT, "%s: %s (%s): walker agrees with the answer key: %,d objects, %,d bytes", label,
                                dump.getFileName(), session.format(), r.objects(), r.bytes()));
                    }
                } else {
                    all = false;
                    err.println(String.format(Locale.ROOT,
                            "clrheap generate: %s: %s (%s): walker DISAGREES with the answer key: %,d differences, %,d problems (%,d objects found, %,d expected)",
                            label, dump.getFileName(), session.format(), r.differences(), r.problems(), r.objects(), r.expected()));
                    r.first().forEach(d -> err.println("  " + d));
                }
            } catch (IOException | TargetException | RuntimeException e) {
                all = false;
                err.println("clrheap generate: " + label + ": " + dump.getFileName() + " cannot be read back: " + e.getMessage());
            }
        }
        return all;
    }

    /**
     * {@code --check-dac}: both DAC walks of the fixture's ELF core and bundle equal the answer key (0), or 1. The
     * command has made sure that one of them is written.
     */
    private int checkDac(List<Path> dumps, Path answer, String label, PrintWriter stdout, PrintWriter err) throws IOException, InterruptedException {
        Path dac = checkDac.isEmpty() ? null : Path.of(checkDac);
        boolean agrees = true;
        DacCheck check = new DacCheck(stdout);
        for (Path dump : dumps.stream().filter(p -> p.toString().endsWith(FixtureFormat.ELF.suffix())
                || p.toString().endsWith(FixtureFormat.BUNDLE.suffix())).toList()) {
            stdout.println("checking " + dump + " with the DAC ...");
            DacCheck.Outcome o = check.check(dump, answer, dac);
            if (!o.made()) {
                err.println("clrheap generate: " + label + ": --check-dac: " + o.summary());
                return 1;
            }
            agrees &= o.agrees();
        }
        if (!agrees) {
            err.println("clrheap generate: " + label + ": the DAC does not read the fixture as its answer key says (above)");
        }
        return agrees ? 0 : 1;
    }

    /** A file's size, or a folder's: the sum of its files'. */
    private static long bytes(Path p) throws IOException {
        if (!Files.isDirectory(p)) {
            return Files.size(p);
        }
        try (Stream<Path> files = Files.walk(p)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
    }
}
