package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Not a test of its own but a tool, off unless {@code CLRHEAP_BUILD_DUMPS=DIR}: starts our program on every
 * {@link RuntimeBuild} (or those {@code CLRHEAP_BUILDS=id,id} names) in both GC modes, and records each with the
 * command line's {@code ./clrheap capture --xz-preset 0} into {@code DIR/ID-wks} and {@code DIR/ID-svr}, beside
 * {@code program.txt} (what the program reported: its objects' addresses, MethodTables and sizes). One line per case
 * goes to {@code DIR/captures.tsv}: folder, build, package, layout, GC, whether the program started, capture's exit
 * code, its last line, and the seconds it took.
 *
 * <pre>{@code
 * CLRHEAP_BUILD_DUMPS=/tmp/builds ./clrheap test -pl golden -am -Dtest=EveryBuildCaptureTool -Dsurefire.failIfNoSpecifiedTests=false
 * }</pre>
 *
 * <p>With {@code CLRHEAP_GC_NAME=libclrgc.so} (or {@code libclrgcexp.so}) each process runs on that standalone GC
 * ({@code DOTNET_GCName}; the classic 9.0.x packages ship both) and its folders are named {@code ID-wks-libclrgc}.
 */
class EveryBuildCaptureTool {

    static final String OUT_VARIABLE = "CLRHEAP_BUILD_DUMPS";
    static final String BUILDS_VARIABLE = "CLRHEAP_BUILDS";
    /** A standalone GC to run on ({@code libclrgc.so}, {@code libclrgcexp.so}): {@code DOTNET_GCName}; folders get its name. */
    static final String GC_NAME_VARIABLE = "CLRHEAP_GC_NAME";

    static Stream<Arguments> cases() {
        String only = System.getenv(BUILDS_VARIABLE);
        List<RuntimeBuild> builds = only == null || only.isBlank() ? List.of(RuntimeBuild.values())
                : Arrays.stream(only.split(",")).map(String::strip).map(RuntimeBuild::byId).toList();
        List<Arguments> cases = new ArrayList<>();
        for (RuntimeBuild b : builds) {
            cases.add(Arguments.of(b, false));
            cases.add(Arguments.of(b, true));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} server GC {1}")
    @MethodSource("cases")
    void capture(RuntimeBuild build, boolean serverGc) throws Exception {
        String configured = System.getenv(OUT_VARIABLE);
        assumeTrue(configured != null && !configured.isBlank(), OUT_VARIABLE + " is not set: not capturing every build");
        Path root = Path.of(configured).toAbsolutePath();
        Files.createDirectories(root);
        String gcName = System.getenv(GC_NAME_VARIABLE);
        boolean standalone = gcName != null && !gcName.isBlank();
        String name = build.id() + (serverGc ? "-svr" : "-wks") + (standalone ? "-" + gcName.replace(".so", "") : "");
        Path out = root.resolve(name);
        Path program = root.resolve(name + ".program.txt");
        String layout = build.layout().name().toLowerCase(Locale.ROOT).replace('_', '-');
        long t0 = System.nanoTime();
        DotnetTestProcess process;
        try {
            process = DotnetTestProcess.start(build, serverGc, standalone ? java.util.Map.of("DOTNET_GCName", gcName) : java.util.Map.of());
        } catch (RuntimeException e) {
            record(root, name, build, layout, serverGc, "no: " + firstLine(e.getMessage()), "-", "-", 0);
            throw e;
        }
        try (process) {
            Files.writeString(program, String.join("\n", process.output()) + "\n");
            double started = (System.nanoTime() - t0) / 1e9;
            Path launcher = launcher();
            Path log = root.resolve(name + ".capture.log");
            long t1 = System.nanoTime();
            Process capture = new ProcessBuilder(launcher.toString(), "capture", "--pid", Long.toString(process.pid()), "--out", out.toString(),
                    "--xz-preset", "0").directory(launcher.getParent().toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!capture.waitFor(10, TimeUnit.MINUTES)) {
                capture.destroyForcibly();
            }
            double seconds = (System.nanoTime() - t1) / 1e9;
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            String last = lines.isEmpty() ? "" : lines.getLast();
            int exit = capture.isAlive() ? -1 : capture.exitValue();
            if (exit == 0) {
                Files.move(program, out.resolve("program.txt"));
                Files.move(log, out.resolve("capture.log"));
            }
            record(root, name, build, layout, serverGc, String.format(Locale.ROOT, "yes (%d objects, %.1f s)", process.objects().size(), started),
                    Integer.toString(exit), last, seconds);
            assertThat(exit).as(String.join("\n", lines)).isZero();
        }
    }

    private static void record(Path root, String name, RuntimeBuild build, String layout, boolean serverGc, String started, String exit,
            String last, double seconds) throws IOException {
        String line = String.join("\t", name, build.version(), build.npmPackage(), layout, serverGc ? "server" : "workstation", started, exit,
                last.replace('\t', ' '), String.format(Locale.ROOT, "%.1f", seconds)) + "\n";
        Files.writeString(root.resolve("captures.tsv"), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** {@code ./clrheap} at the top of the source tree (the tests run in a module's folder). */
    static Path launcher() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("clrheap");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no ./clrheap launcher above " + Path.of("").toAbsolutePath());
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("");
    }
}
