package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.dac.TestDac;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code clrheap walk DUMP --engine dac | dac-heapwalk}: the walker's reports, from Microsoft's DAC's answers. */
class WalkDacCommandTest {

    private static final String WKS = "../golden/real/net9-wks/core.xz";
    private static final String SVR = "../golden/real/net9-svr/core.xz";

    private static String dac() {
        return TestDac.path().toString();
    }

    @Test
    void theSosPathPrintsTheSameDumpheapStatAsTheWalker() {
        String names = "../golden/real/net9-svr/live-objects.txt";
        Outcome walker = run("walk", SVR, "--stat", "-q", "--names", names);
        Outcome dac = run("walk", SVR, "--engine", "dac", "--dac", dac(), "--stat", "-q", "--names", names);
        assertThat(dac.exitCode()).as(dac.err()).isZero();
        assertThat(dac.out()).isEqualTo(walker.out()).contains("Total 12,652 objects");
    }

    @Test
    void theJsonReportsAreTheWalkers() {
        String names = "../golden/real/net9-svr/live-objects.txt";
        Outcome walker = run("walk", SVR, "--stat", "--json", "-q", "--names", names);
        Outcome dac = run("walk", SVR, "--engine", "dac", "--dac", dac(), "--stat", "--json", "-q", "--names", names);
        assertThat(dac.exitCode()).as(dac.err()).isZero();
        assertThat(dac.out()).isEqualTo(walker.out()).contains("\"problemCount\" : 0");
        Outcome walkerObjects = run("walk", WKS, "--objects", "--json", "-q");
        Outcome dacObjects = run("walk", WKS, "--engine", "dac", "--dac", dac(), "--objects", "--json", "-q");
        assertThat(dacObjects.out()).isEqualTo(walkerObjects.out()).contains("\"generation\":\"gen0\"");
    }

    @Test
    void theSosPathListsTheSameObjectsInAddressOrder() {
        Outcome walker = run("walk", WKS, "--objects", "-q");
        Outcome dac = run("walk", WKS, "--engine", "dac", "--dac", dac(), "--objects", "-q");
        assertThat(dac.exitCode()).as(dac.err()).isZero();
        assertThat(dac.out()).isEqualTo(walker.out());
    }

    @Test
    void theEeheapRegionsAreTheWalkers() {
        Outcome walker = run("walk", SVR, "--eeheap", "-q");
        Outcome dac = run("walk", SVR, "--engine", "dac", "--dac", dac(), "--eeheap", "-q");
        assertThat(dac.exitCode()).as(dac.err()).isZero();
        assertThat(regionLines(dac.out())).isNotEmpty().containsExactlyElementsOf(regionLines(walker.out()));
    }

    private static java.util.List<String> regionLines(String eeheap) {
        return eeheap.lines().filter(l -> l.matches("[0-9a-f]{16} .*")).toList();
    }

    @Test
    void theDacsHeapWalkerSkipsFreeObjectsAndSaysWhoWalked() {
        Outcome walker = run("walk", WKS, "--stat", "-q");
        Outcome dac = run("walk", WKS, "--engine", "dac-heapwalk", "--dac", dac(), "--stat");
        assertThat(dac.exitCode()).as(dac.err()).isZero();
        assertThat(dac.err()).contains("IDacDbiInterface::WalkHeap", "9.0.124.61010", "0 failed calls");
        assertThat(dac.out()).doesNotContain(" Free\n");
        assertThat(walker.out()).contains(" Free\n");
    }

    @Test
    void verifyListsNoFailedCallOnARealDump() {
        Outcome r = run("walk", WKS, "--engine", "dac", "--dac", dac(), "--verify", "-q");
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("9,359 objects from the DAC, 0 failed calls").containsPattern("note: [\\d,]+ reads of target memory");
    }

    @Test
    void aDacOfAnotherBuildIsRefusedNamingBoth() {
        Outcome r = run("walk", "../golden/real/net8-svr/core.xz", "--engine", "dac", "--dac", dac(), "--stat");
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains(".NET 9.0.1 (9.0.124.61010", "the dump's runtime is .NET 8.0.30");
    }

    @Test
    void aMissingDacIsInvalidInputSayingWhere(@org.junit.jupiter.api.io.TempDir Path dir) {
        Outcome r = run("walk", WKS, "--engine", "dac", "--dac", dir.resolve("nope.so").toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("nope.so: no such file");
    }

    @Test
    void theDacEnginesAreForDumpsAndProcessesAndKnownNames() {
        Outcome emulated = run("walk", "--emulate", "default", "--engine", "dac");
        assertThat(emulated.exitCode()).isEqualTo(2);
        assertThat(emulated.err()).contains("reads dumps and processes");
        Outcome bogus = run("walk", WKS, "--engine", "sos");
        assertThat(bogus.exitCode()).isEqualTo(2);
        assertThat(bogus.err()).contains("one of walker, dac, dac-heapwalk");
        assertThat(run("walk", WKS, "--dac", "x.so").err()).contains("--dac goes with --engine dac");
    }

    @Test
    void conformUsesTheDacAsTheReferenceOfARealDump() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String walker = "\"" + java + "\" --enable-native-access=ALL-UNNAMED -cp \"" + System.getProperty("java.class.path")
                + "\" io.clrheap.cli.ClrheapCommand walk {dump} --objects -q";
        Outcome r = run("conform", "--walker", walker, "--expect", "objects", "--dac-reference", WKS, "--dac", dac());
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("reference: net9-wks/core.xz: a real .NET 9.0.1 dump; the reference is Microsoft's DAC 9.0.1", "1 of 1 fixtures passed");
    }

    @Test
    void generateCheckDacAndDemoSayTheDacAgreesWithTheAnswerKey(@org.junit.jupiter.api.io.TempDir Path dir) {
        Outcome generate = run("generate", "--scenario", "every-edge", "--runtime", "net9", "--gc", "workstation", "--format", "elf,bundle",
                "--out", dir.resolve("fx").toString(), "-q", "--check-dac", dac());
        // every-edge holds the traps the DAC's own heap walker cannot walk (docs/dac.md): the SOS path agrees, the check fails
        assertThat(generate.exitCode()).isEqualTo(1);
        assertThat(generate.out()).contains("SOS path (ISOSDacInterface): agrees with the answer key", "the DAC crashed in WalkHeap");
        Outcome demo = run("demo", "--runtime", "net9", "--out", dir.resolve("demo").toString(), "--dac", dac());
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        assertThat(demo.out()).contains("SOS path (ISOSDacInterface): agrees with the answer key: 6,926 objects",
                "DAC heap walker (IDacDbiInterface::WalkHeap): agrees with the answer key: 6,180 objects");
    }

    @Test
    void demoWithoutADacForTheBuildSaysItWasNotChecked(@org.junit.jupiter.api.io.TempDir Path dir) {
        Outcome demo = run("demo", "--out", dir.toString(), "--dac", TestDac.path().toString());
        assertThat(demo.exitCode()).isZero();
        assertThat(demo.out()).contains("Microsoft's DAC: not checked: the DAC", "the dump's runtime is .NET 8.0.30");
    }
}
