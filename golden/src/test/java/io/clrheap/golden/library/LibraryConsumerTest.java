package io.clrheap.golden.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.generator.ExternalTool;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/library.md, "Using clrheap as a library": a Maven project outside the clone uses this build's walker as the README says
 * — the walker and its parent and layout-model installed into a local repository of its own (here a throwaway one,
 * with {@code install:install-file} of the jars the reactor just packaged), a pom with the one dependency the README
 * gives, Java compiled for release 22 — and reads a real dump with it. The throwaway repository links in the
 * third-party artifacts of this build's own local repository: no repository is named, nothing is downloaded.
 */
class LibraryConsumerTest {

    /** The lowest Java release the walker's API allows (walker/pom.xml: java.lang.foreign is final in 22). */
    static final int FLOOR = 22;
    static final int FLOOR_CLASS_FILE = 44 + FLOOR; // JVMS 4.1: major version 66 is Java 22

    static final String VERSION = System.getProperty("clrheap.version", "0.1.0");
    static final Path CORE = Path.of("real", "net8-svr", "core.xz"); // tests run in the golden module's folder
    static final ExternalTool MAVEN = new ExternalTool("Maven (mvn)", "the Debian package maven (apt-get install maven)", List.of("mvn"));

    @Test
    void theWalkerAndLayoutModelJarsHoldOnlyClassFilesAJava22RuntimeLoads() throws IOException {
        for (String module : List.of("layout-model", "walker")) {
            try (JarFile jar = new JarFile(packagedJar(module).toFile())) {
                List<String> newer = new ArrayList<>();
                int classes = 0;
                for (JarEntry e : jar.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
                    classes++;
                    try (InputStream in = jar.getInputStream(e)) {
                        int major = classFileMajor(in.readNBytes(8));
                        if (major > FLOOR_CLASS_FILE) {
                            newer.add(e.getName() + " (class file " + major + ")");
                        }
                    }
                }
                assertThat(classes).as(module).isPositive();
                assertThat(newer).as("classes of clrheap-%s newer than Java %d", module, FLOOR).isEmpty();
            }
        }
    }

    @Test
    void aMavenProjectOutsideTheCloneBuildsForJava22AgainstTheInstalledWalkerAndCountsARealDumpsObjectsAsWalkStatDoes(@TempDir Path dir)
            throws Exception {
        Path mvn = MAVEN.require();
        Path walkerJar = packagedJar("walker");
        Path layoutJar = packagedJar("layout-model");
        Path repository = throwawayRepository(dir);

        Path root = Path.of("..").toAbsolutePath().normalize();
        install(mvn, dir, repository, root.resolve("pom.xml"), root.resolve("pom.xml"));
        install(mvn, dir, repository, layoutJar, root.resolve("layout-model/pom.xml"));
        install(mvn, dir, repository, walkerJar, root.resolve("walker/pom.xml"));

        Path project = consumerProject(dir.resolve("consumer"));
        Path classpathFile = project.resolve("classpath.txt");
        maven(mvn, project, repository, "compile", "org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath",
                "-Dmdep.outputFile=" + classpathFile);
        String classpath = project.resolve("target/classes") + File.pathSeparator + Files.readString(classpathFile).strip();
        assertThat(classpath).as("the walker comes from the throwaway repository, with its dependencies")
                .contains(repository.resolve("io/clrheap/clrheap-walker").toString(), repository.resolve("io/clrheap/clrheap-layout-model").toString(),
                        "jackson-databind", "xz-");
        assertThat(classFileMajor(Files.readAllBytes(project.resolve("target/classes/example/CountObjects.class")))).isEqualTo(FLOOR_CLASS_FILE);

        String printed = run(List.of(javaCommand(), "-cp", classpath, "example.CountObjects", CORE.toAbsolutePath().toString()), project);

        ClrheapCommand.Outcome stat = ClrheapCommand.run("walk", CORE.toString(), "--stat");
        assertThat(stat.exitCode()).as(stat.err()).isZero();
        Matcher total = Pattern.compile("(?m)^Total ([\\d,]+) objects").matcher(stat.out());
        assertThat(total.find()).as(stat.out()).isTrue();
        assertThat(printed.lines()).as(printed).contains("objects: " + total.group(1).replace(",", ""));
    }

    /** The jar the reactor packaged for {@code module} (walker/target/clrheap-walker-VERSION.jar). */
    private static Path packagedJar(String module) {
        Path jar = Path.of("..", module, "target", "clrheap-" + module + "-" + VERSION + ".jar").toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            String message = jar + " is not built: run the tests with mvn verify (the jars are made in the package phase)";
            System.err.println("SKIPPED: " + message);
            assumeTrue(false, message);
        }
        return jar;
    }

    /**
     * A local repository of its own for the consumer: every group of this build's local repository linked in (the
     * third-party artifacts and plugins the build already has, so nothing is downloaded and no repository is named),
     * but {@code io/clrheap}, where the test installs the jars it checks.
     */
    private static Path throwawayRepository(Path dir) throws IOException {
        Path local = Path.of(System.getProperty("clrheap.localRepository", System.getProperty("user.home") + "/.m2/repository"));
        Path repository = Files.createDirectories(dir.resolve("repository"));
        linkAllBut(local, repository, "io");
        linkAllBut(local.resolve("io"), Files.createDirectories(repository.resolve("io")), "clrheap");
        return repository;
    }

    private static void linkAllBut(Path from, Path to, String except) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        try (java.util.stream.Stream<Path> entries = Files.list(from)) {
            for (Path e : (Iterable<Path>) entries::iterator) {
                if (!e.getFileName().toString().equals(except)) {
                    Files.createSymbolicLink(to.resolve(e.getFileName().toString()), e);
                }
            }
        }
    }

    private static void install(Path mvn, Path dir, Path repository, Path file, Path pom) throws Exception {
        maven(mvn, dir, repository, "org.apache.maven.plugins:maven-install-plugin:3.1.4:install-file", "-Dfile=" + file, "-DpomFile=" + pom);
    }

    /** The README's consumer: a pom with the one dependency it gives, for release 22, and a class that counts a dump's objects. */
    private static Path consumerProject(Path project) throws IOException {
        Files.createDirectories(project.resolve("src/main/java/example"));
        Files.writeString(project.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>example</groupId>
                  <artifactId>count-objects</artifactId>
                  <version>1</version>
                  <properties>
                    <maven.compiler.release>%d</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                  <dependencies>
                    <dependency>
                      <groupId>io.clrheap</groupId>
                      <artifactId>clrheap-walker</artifactId>
                      <version>%s</version>
                    </dependency>
                  </dependencies>
                  <build>
                    <plugins>
                      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
                      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.16.0</version></plugin>
                    </plugins>
                  </build>
                </project>
                """.formatted(FLOOR, VERSION));
        Files.writeString(project.resolve("src/main/java/example/CountObjects.java"), """
                package example;

                import io.clrheap.walker.DumpSession;
                import io.clrheap.walker.Dumps;
                import java.nio.file.Path;

                public final class CountObjects {
                    public static void main(String[] args) throws Exception {
                        try (DumpSession dump = Dumps.open(Path.of(args[0]))) {
                            long[] objects = {0};
                            dump.walk((address, methodTable, size, region) -> objects[0]++);
                            System.out.println("objects: " + objects[0]);
                        }
                    }
                }
                """);
        return project;
    }

    private static void maven(Path mvn, Path workDir, Path repository, String... goals) throws Exception {
        List<String> command = new ArrayList<>(List.of(mvn.toString(), "-B", "-q", "-Dmaven.repo.local=" + repository));
        command.addAll(List.of(goals));
        run(command, workDir);
    }

    /** Runs {@code command} under this JDK (JAVA_HOME), at most two minutes; what it printed, or a failure quoting it. */
    private static String run(List<String> command, Path workDir) throws Exception {
        Path output = Files.createTempFile(workDir, "run", ".out");
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).redirectOutput(output.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " took more than 120 s:\n" + Files.readString(output, StandardCharsets.UTF_8));
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(String.join(" ", command) + " failed:\n" + printed).isZero();
        return printed;
    }

    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A class file's major version (JVMS 4.1: after the magic number and the minor version). */
    private static int classFileMajor(byte[] header) {
        return (header[6] & 0xff) << 8 | header[7] & 0xff;
    }
}
