package io.clrheap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@code walk DUMP.xz} decompresses to, end to end: the cache folder the environment names, never beside the
 * input, or with {@code --no-cache} a temporary file gone when the command ends. Each run is a JVM of its own, with an
 * environment, a home folder and a temporary folder of the test's own, so the user's ~/.cache is never touched.
 */
class DumpCacheCommandTest {

    /** A committed Windows minidump of the golden corpus: small, xz-compressed, walkable. */
    private static final Path MINIDUMP_XZ = Path.of("..", "golden", "synthetic", "net8-windows-server", "min-object.dmp.xz");

    @TempDir
    Path work;

    private Path input;
    private Path cache;
    private Path tmp;
    private Path home;

    private record Run(int exitCode, String out, String err) {
    }

    @BeforeEach
    void folders() throws IOException {
        input = Files.createDirectories(work.resolve("shared-input"));
        Files.copy(MINIDUMP_XZ, input.resolve("dump.dmp.xz"));
        cache = work.resolve("cache");
        tmp = Files.createDirectories(work.resolve("tmp"));
        home = Files.createDirectories(work.resolve("home"));
    }

    private Run clrheap(Map<String, String> environment, String... arguments) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + tmp,
                "-Duser.home=" + home, "-cp", System.getProperty("java.class.path"), "io.clrheap.cli.ClrheapCommand"));
        command.addAll(List.of(arguments));
        Path out = work.resolve("out.txt");
        Path err = work.resolve("err.txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().keySet().removeAll(List.of("CLRHEAP_CACHE", "XDG_CACHE_HOME", "CLRHEAP_CACHE_MAX"));
        builder.environment().putAll(environment);
        Process p = builder.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("clrheap ends within two minutes").isTrue();
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private Run walk(Map<String, String> environment, Path dump, String... more) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("walk", dump.toString(), "--stat"));
        arguments.addAll(List.of(more));
        return clrheap(environment, arguments.toArray(String[]::new));
    }

    private static List<String> names(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aDumpInAReadOnlyFolderIsWalkedAndNothingIsWrittenBesideIt() throws Exception {
        Files.setPosixFilePermissions(input, PosixFilePermissions.fromString("r-xr-xr-x"));
        Run run;
        try {
            run = walk(Map.of("CLRHEAP_CACHE", cache.toString()), input.resolve("dump.dmp.xz"));
        } finally {
            Files.setPosixFilePermissions(input, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("Total");
        assertThat(names(input)).containsExactly("dump.dmp.xz");
        assertThat(names(cache.resolve("cores"))).singleElement().asString().matches("[0-9a-f]{64}\\.core");
        assertThat(run.err()).contains("decompressing " + input.resolve("dump.dmp.xz") + " to " + cache.resolve("cores"), "(once)");
    }

    @Test
    void theSameBytesUnderAnotherNameAreNotDecompressedAgain() throws Exception {
        Path other = Files.copy(input.resolve("dump.dmp.xz"), Files.createDirectories(work.resolve("elsewhere")).resolve("copy.dmp.xz"));
        Run first = walk(Map.of("CLRHEAP_CACHE", cache.toString()), input.resolve("dump.dmp.xz"));
        Run second = walk(Map.of("CLRHEAP_CACHE", cache.toString()), other);
        assertThat(first.err()).contains("decompressing");
        assertThat(second.exitCode()).as(second.out() + second.err()).isZero();
        assertThat(second.err()).doesNotContain("decompressing");
        assertThat(second.out()).isEqualTo(first.out());
    }

    @Test
    void noCacheLeavesNothingBehindAfterTheCommand() throws Exception {
        Run run = walk(Map.of("CLRHEAP_CACHE", cache.toString()), input.resolve("dump.dmp.xz"), "--no-cache");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("Total");
        assertThat(run.err()).contains("decompressing " + input.resolve("dump.dmp.xz") + " to " + tmp, "--no-cache");
        assertThat(names(tmp)).as("the temporary file is gone").isEmpty();
        assertThat(cache).doesNotExist();
        assertThat(names(input)).containsExactly("dump.dmp.xz");
    }

    @Test
    void withoutClrheapCacheTheCacheIsUnderXdgCacheHome() throws Exception {
        Path xdg = work.resolve("xdg");
        Run run = walk(Map.of("XDG_CACHE_HOME", xdg.toString()), input.resolve("dump.dmp.xz"));
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(names(xdg.resolve("clrheap").resolve("cores"))).hasSize(1);
        assertThat(names(home)).isEmpty();
    }

    @Test
    void withNeitherVariableTheCacheIsInTheHomeFolder() throws Exception {
        Run run = walk(Map.of(), input.resolve("dump.dmp.xz"));
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(names(home.resolve(".cache").resolve("clrheap").resolve("cores"))).hasSize(1);
    }

    @Test
    void aCacheBoundThatIsNoSizeIsSaidAndTheDumpNotOpened() throws Exception {
        Run run = walk(Map.of("CLRHEAP_CACHE", cache.toString(), "CLRHEAP_CACHE_MAX", "lots"), input.resolve("dump.dmp.xz"));
        assertThat(run.exitCode()).isEqualTo(WalkCommand.EXIT_CANNOT_OPEN);
        assertThat(run.err()).contains("$CLRHEAP_CACHE_MAX is 'lots', not a size").doesNotContain("\tat ");
    }

    @Test
    void noCacheGoesWithADumpOnly() {
        ClrheapCommand.Outcome o = ClrheapCommand.run("walk", "--emulate", "default", "--no-cache");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("--no-cache goes with a DUMP");
    }
}
