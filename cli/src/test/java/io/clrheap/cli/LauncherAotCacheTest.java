package io.clrheap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's start-up cache ({@code ./clrheap}, JDK 25's AOT cache): made once, used after, made again when the
 * jar changes, a corrupt one ignored without a word, none with {@code CLRHEAP_AOT=0}, a failed training not retried.
 * The launcher runs as a process from a copy in a temporary folder, with a small jar of its own
 * ({@link LauncherFakeMain}) where the CLI's jar goes: no sources beside it, so the launcher never builds.
 */
class LauncherAotCacheTest {

    private static final String CREATING = "clrheap: creating the start-up cache";

    @TempDir
    Path root;

    Path jar;
    Path cache;

    @BeforeEach
    void copyTheLauncher() throws IOException {
        Path launcher = Path.of("..", "clrheap").toAbsolutePath().normalize();
        assertThat(launcher).as("the launcher, from the cli module's folder").isRegularFile();
        Files.copy(launcher, root.resolve("clrheap"));
        root.resolve("clrheap").toFile().setExecutable(true);
        jar = root.resolve("cli/target/clrheap-cli.jar");
        cache = root.resolve("cli/target/clrheap-cli.aot");
        Files.createDirectories(jar.getParent());
        writeJar("");
    }

    /** The jar: {@link LauncherFakeMain} as its main class, and {@code extra} as a resource (to change the jar). */
    private void writeJar(String extra) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, LauncherFakeMain.class.getName());
        String name = LauncherFakeMain.class.getName().replace('.', '/') + ".class";
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, manifest);
                InputStream in = LauncherFakeMain.class.getClassLoader().getResourceAsStream(name)) {
            j.putNextEntry(new JarEntry(name));
            in.transferTo(j);
            j.putNextEntry(new JarEntry("extra.txt"));
            j.write(extra.getBytes(StandardCharsets.UTF_8));
        }
    }

    record Run(int exit, String out, String err) {
    }

    private Run launch(Map<String, String> env, String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder();
        pb.command().add(root.resolve("clrheap").toString());
        pb.command().addAll(java.util.List.of(args));
        pb.environment().remove("CLRHEAP_AOT");
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("TMPDIR", root.toString());
        pb.environment().putAll(env);
        Path out = root.resolve("out.txt");
        Path err = root.resolve("err.txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the launcher finished").isTrue();
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private Run launch(String... args) throws IOException, InterruptedException {
        return launch(Map.of(), args);
    }

    @Test
    void madeOnceThenUsed() throws Exception {
        Run first = launch("walk", "x");
        assertThat(first.exit()).isZero();
        assertThat(first.err()).startsWith(CREATING).doesNotContain("could not");
        assertThat(first.out()).isEqualTo("main walk x aot=yes\n");
        assertThat(cache).isNotEmptyFile();
        FileTime made = Files.getLastModifiedTime(cache);

        Run second = launch("--version");
        assertThat(second).isEqualTo(new Run(0, "main --version aot=yes\n", ""));
        // the JVM can use it: with -XX:AOTMode=on a cache it cannot use is an error, not silently ignored
        Process strict = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
                "-XX:AOTCache=" + cache, "-XX:AOTMode=on", "-jar", jar.toString(), "strict").redirectErrorStream(true).start();
        String strictOut = new String(strict.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(strict.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(strict.exitValue()).as(strictOut).isZero();
        assertThat(strictOut).contains("main strict aot=yes");
        assertThat(Files.getLastModifiedTime(cache)).isEqualTo(made);
        try (var leftovers = Files.list(root)) {
            assertThat(leftovers.filter(f -> f.getFileName().toString().startsWith("clrheap-aot."))).as("the training's folder, removed").isEmpty();
        }
    }

    @Test
    void madeAgainWhenTheJarChanges() throws Exception {
        assertThat(launch("a").err()).startsWith(CREATING);
        String key = Files.readString(root.resolve("cli/target/clrheap-cli.aot.key"));
        writeJar("a rebuilt jar");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 5_000));

        Run after = launch("b");
        assertThat(after.err()).startsWith(CREATING).doesNotContain("could not");
        assertThat(after.out()).isEqualTo("main b aot=yes\n");
        assertThat(Files.readString(root.resolve("cli/target/clrheap-cli.aot.key"))).isNotEqualTo(key);
        assertThat(launch("c")).isEqualTo(new Run(0, "main c aot=yes\n", ""));
    }

    @Test
    void aCorruptCacheIsIgnoredWithoutAWord() throws Exception {
        assertThat(launch("a").exit()).isZero();
        byte[] garbage = new byte[100_000];
        new java.util.Random(7).nextBytes(garbage);
        Files.write(cache, garbage);
        // the JVM would say so on stdout (unified logging's default), in the middle of a report
        assertThat(launch("walk", "dump")).isEqualTo(new Run(0, "main walk dump aot=yes\n", ""));
        Files.write(cache, new byte[0]);
        assertThat(launch("walk", "dump")).isEqualTo(new Run(0, "main walk dump aot=yes\n", ""));
    }

    @Test
    void launchersStartedTogetherTrainOnceAndAllRun() throws Exception {
        java.util.List<Process> started = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ProcessBuilder pb = new ProcessBuilder(root.resolve("clrheap").toString(), "run" + i);
            pb.environment().remove("CLRHEAP_AOT");
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
            pb.environment().put("TMPDIR", root.toString());
            started.add(pb.redirectOutput(root.resolve("out" + i).toFile()).redirectError(root.resolve("err" + i).toFile()).start());
        }
        int trainings = 0;
        for (int i = 0; i < started.size(); i++) {
            assertThat(started.get(i).waitFor(120, TimeUnit.SECONDS)).as("launcher " + i + " finished").isTrue();
            assertThat(started.get(i).exitValue()).isZero();
            assertThat(Files.readString(root.resolve("out" + i))).startsWith("main run" + i + " aot=");
            String err = Files.readString(root.resolve("err" + i));
            assertThat(err).doesNotContain("could not");
            trainings += err.contains(CREATING) ? 1 : 0;
        }
        assertThat(trainings).as("launchers that trained").isEqualTo(1);
        assertThat(launch("after")).isEqualTo(new Run(0, "main after aot=yes\n", ""));
    }

    @Test
    void aLauncherStoppedMidTrainingLeavesNothingBehind() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(root.resolve("clrheap").toString(), "x");
        pb.environment().remove("CLRHEAP_AOT");
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("TMPDIR", root.toString());
        pb.environment().put("CLRHEAP_TEST_SLOW_TRAINING", "1");
        Path err = root.resolve("err-stopped");
        Process p = pb.redirectOutput(root.resolve("out-stopped").toFile()).redirectError(err.toFile()).start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!Files.readString(err).contains(CREATING) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        p.destroy(); // SIGTERM to the launcher, as a kill or a CI timeout sends it

        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(130);
        assertThat(cache).doesNotExist();
        try (var target = Files.list(jar.getParent()); var tmp = Files.list(root)) {
            assertThat(target.map(f -> f.getFileName().toString())).as("cli/target").noneMatch(n -> n.contains(".tmp"));
            assertThat(tmp.map(f -> f.getFileName().toString())).as("the temporary folder").noneMatch(n -> n.startsWith("clrheap-aot."));
        }
    }

    @Test
    void offWithClrheapAot0() throws Exception {
        assertThat(launch(Map.of("CLRHEAP_AOT", "0"), "x")).isEqualTo(new Run(0, "main x aot=no\n", ""));
        assertThat(cache).doesNotExist();
    }

    @Test
    void aFailedTrainingIsNotTriedAgainForTheSameJar() throws Exception {
        Map<String, String> failing = Map.of("CLRHEAP_TEST_FAIL_TRAINING", "1");
        Run first = launch(failing, "x");
        assertThat(first.exit()).isZero();
        assertThat(first.out()).isEqualTo("main x aot=no\n");
        assertThat(first.err()).startsWith(CREATING).contains("could not create the start-up cache");
        assertThat(cache).doesNotExist();

        assertThat(launch(failing, "y")).isEqualTo(new Run(0, "main y aot=no\n", ""));
        assertThat(launch("z")).as("training is not retried for the same jar, even when it would work")
                .isEqualTo(new Run(0, "main z aot=no\n", ""));

        writeJar("rebuilt");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
        Run rebuilt = launch("w");
        assertThat(rebuilt.err()).startsWith(CREATING).doesNotContain("could not");
        assertThat(rebuilt.out()).isEqualTo("main w aot=yes\n");
    }
}
