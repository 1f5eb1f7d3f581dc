package io.clrheap.golden.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering docs/library.md's "Modules" section describes, enforced on the compiled main classes of every module (the
 * reactor has compiled them into {@code MODULE/target/classes} before the golden module's tests run).
 */
class ArchitectureTest {

    /** Tests run in the golden module's folder; the project is its parent. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final int LONG_FILE = 400;

    private static JavaClasses main;

    @BeforeAll
    static void importEveryModulesMainClasses() throws IOException {
        List<Path> folders = new ArrayList<>();
        for (String module : modules()) {
            Path classes = ROOT.resolve(module).resolve("target/classes");
            assertThat(classes).as("module %s is compiled", module).isDirectory();
            folders.add(classes);
        }
        main = new ClassFileImporter().importPaths(folders);
        assertThat(main.contain("io.clrheap.walker.Dumps")).isTrue();
    }

    /** The modules the root pom lists, in its order. */
    static List<String> modules() throws IOException {
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(ROOT.resolve("pom.xml")));
        List<String> modules = new ArrayList<>();
        while (m.find()) {
            modules.add(m.group(1));
        }
        return modules;
    }

    @Test
    void noPackageDependsOnItselfThroughOthers() {
        // each package is a slice of its own: io.clrheap.walker.walk and io.clrheap.walker.discovery are two slices
        slices().matching("io.clrheap.(**)").should().beFreeOfCycles().check(main);
    }

    @Test
    void theWalkerAndTheDacNeverDependOnTheEmulator() {
        // the walker is checked against the emulator: they must not share code that could make their mistakes cancel out
        noClasses().that().resideInAnyPackage("io.clrheap.walker..", "io.clrheap.dac..")
                .should().dependOnClassesThat().resideInAPackage("io.clrheap.emulator..").check(main);
    }

    @Test
    void theLayoutModelDependsOnNoOtherModule() {
        noClasses().that().resideInAnyPackage("io.clrheap.layout..", "io.clrheap.memory..", "io.clrheap.process..")
                .should().dependOnClassesThat().resideInAnyPackage("io.clrheap.emulator..", "io.clrheap.walker..", "io.clrheap.dac..",
                        "io.clrheap.generator..", "io.clrheap.capture..", "io.clrheap.conformance..", "io.clrheap.cli..", "io.clrheap.golden..")
                .check(main);
    }

    @Test
    void theWalkerStandsOnTheLayoutModelAlone() {
        noClasses().that().resideInAPackage("io.clrheap.walker..")
                .should().dependOnClassesThat().resideInAnyPackage("io.clrheap.dac..", "io.clrheap.generator..", "io.clrheap.capture..",
                        "io.clrheap.conformance..", "io.clrheap.cli..", "io.clrheap.golden..")
                .check(main);
    }

    @Test
    void captureNeedsNeitherTheEmulatorNorTheGenerator() {
        noClasses().that().resideInAPackage("io.clrheap.capture..")
                .should().dependOnClassesThat().resideInAnyPackage("io.clrheap.emulator..", "io.clrheap.generator..", "io.clrheap.dac..",
                        "io.clrheap.conformance..", "io.clrheap.cli..")
                .check(main);
    }

    @Test
    void theGeneratorAndConformanceSitBelowTheCommandLine() {
        noClasses().that().resideInAnyPackage("io.clrheap.generator..", "io.clrheap.conformance..", "io.clrheap.emulator..")
                .should().dependOnClassesThat().resideInAnyPackage("io.clrheap.cli..", "io.clrheap.capture..", "io.clrheap.golden..")
                .check(main);
        noClasses().that().resideInAPackage("io.clrheap.generator..")
                .should().dependOnClassesThat().resideInAPackage("io.clrheap.conformance..").check(main);
    }

    @Test
    void noPackageIsNamedTarget() {
        // Maven's build folder is target/: a package of that name reads like build output
        assertThat(main.stream().map(c -> c.getPackageName()).distinct().filter(p -> List.of(p.split("\\.")).contains("target")))
                .isEmpty();
    }

    @Test
    void everyMainFileOverFourHundredLinesSaysWhyInItsHeaderComment() throws IOException {
        List<String> unexplained = new ArrayList<>();
        for (String module : modules()) {
            Path sources = ROOT.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(sources)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    List<String> lines = Files.readAllLines(file);
                    if (lines.size() > LONG_FILE && !LongFiles.explainsItsLength(lines)) {
                        unexplained.add(ROOT.relativize(file) + " (" + lines.size() + " lines)");
                    }
                }
            }
        }
        assertThat(unexplained).as("files over %d lines whose header comment does not say why (a line starting 'Long because')", LONG_FILE)
                .isEmpty();
    }
}
