package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.dac.DacLocator;
import io.clrheap.dac.TestDac;
import io.clrheap.dac.TestDac.Build;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every use of the DAC on the command line takes the DAC of the dump's exact build: given a folder of the 9.0.1, 9.0.5
 * and 9.0.7 DACs ({@code --dac DIR}, {@code --check-dac DIR}), {@code walk --engine dac}, {@code conform --dac-reference},
 * {@code generate --check-dac} and {@code demo} pick the 9.0.1 one for the real and emulated 9.0.1 dumps, and say which
 * builds the folder holds when none is the dump's.
 */
class DacBuildsCommandTest {

    private static final String WKS = "../golden/real/net9-wks/core.xz";

    /** {@code DIR/9.0.1/libmscordaccore.so}, {@code DIR/9.0.5/...}, {@code DIR/9.0.7/...}. */
    private static Path folderOfAll(Path dir) throws Exception {
        for (Map.Entry<Build, Path> e : TestDac.all().entrySet()) {
            Files.copy(e.getValue(), Files.createDirectories(dir.resolve(e.getKey().version())).resolve(DacLocator.FILE_NAME));
        }
        return dir;
    }

    @Test
    void walkTakesTheDumpsBuildFromAFolderOfDacs(@TempDir Path dir) throws Exception {
        Path all = folderOfAll(dir.resolve("dacs"));
        Outcome walker = run("walk", WKS, "--objects", "-q");
        Outcome dac = run("walk", WKS, "--engine", "dac", "--dac", all.toString(), "--objects");
        assertThat(dac.exitCode()).as(dac.err()).isZero();
        assertThat(dac.err()).contains("DAC 9.0.1 (9.0.124.61010, commit c8acea22626e) at " + all.resolve("9.0.1").resolve(DacLocator.FILE_NAME) + " (--dac)");
        assertThat(dac.out()).isEqualTo(walker.out());
    }

    @Test
    void aDacOfAnotherNet9BuildIsRefusedNamingBothExactBuilds() {
        Outcome r = run("walk", WKS, "--engine", "dac", "--dac", TestDac.path(Build.NET_9_0_7).toString(), "--stat");
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("is .NET 9.0.7 (9.0.725.31616, commit 3c298d9f0093); the dump's runtime is .NET 9.0.1",
                "use the libmscordaccore.so of .NET 9.0.1");
    }

    @Test
    void aFolderWithoutTheDumpsBuildNamesTheBuildsItHolds(@TempDir Path dir) throws Exception {
        Path all = folderOfAll(dir.resolve("dacs"));
        Outcome r = run("walk", "../golden/real/net8-svr/core.xz", "--engine", "dac", "--dac", all.toString(), "--stat");
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("holds no DAC of .NET 8.0.30", ".NET 9.0.1 (9.0.124.61010", ".NET 9.0.5 (9.0.525.21509", ".NET 9.0.7 (9.0.725.31616");
    }

    @Test
    void conformGenerateAndDemoTakeTheBuildsDacFromAFolder(@TempDir Path dir) throws Exception {
        Path all = folderOfAll(dir.resolve("dacs"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String walker = "\"" + java + "\" --enable-native-access=ALL-UNNAMED -cp \"" + System.getProperty("java.class.path")
                + "\" io.clrheap.cli.ClrheapCommand walk {dump} --objects -q";
        Outcome conform = run("conform", "--walker", walker, "--expect", "objects", "--dac-reference", WKS, "--dac", all.toString());
        assertThat(conform.exitCode()).as(conform.out() + conform.err()).isZero();
        assertThat(conform.out()).contains("the reference is Microsoft's DAC 9.0.1 (9.0.124.61010, commit c8acea22626e)");

        // a folder of DACs may serve a batch of several runtimes: each fixture's build is chosen, and one without a DAC fails
        Outcome generate = run("generate", "--scenario", "default", "--runtime", "net8,net9", "--gc", "workstation", "--format", "elf",
                "--out", dir.resolve("fx").toString(), "-q", "--check-dac", all.toString());
        assertThat(generate.exitCode()).as(generate.out() + generate.err()).isEqualTo(1);
        assertThat(generate.out()).contains("DAC 9.0.1, SOS path (ISOSDacInterface): agrees with the answer key");
        assertThat(generate.err()).contains("default net8 workstation: --check-dac: " + all + " holds no DAC of .NET 8.0.30")
                .doesNotContain("net9");

        Outcome demo = run("demo", "--runtime", "net9", "--gc", "workstation", "--out", dir.resolve("demo").toString(), "--dac", all.toString());
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        assertThat(demo.out()).contains("DAC 9.0.1, SOS path (ISOSDacInterface): agrees with the answer key");
    }
}
