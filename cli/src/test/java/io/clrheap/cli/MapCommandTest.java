package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clrheap map DUMP --html OUT.html}: what it writes and says, and how it refuses what it cannot do. */
class MapCommandTest {

    @TempDir
    static Path dir;

    static Path bundle;

    @BeforeAll
    static void generate() {
        assertThat(run("generate", "--scenario", "every-edge", "--format", "bundle", "--out", dir.toString(), "-q").exitCode()).isZero();
        bundle = dir.resolve("every-edge-net8-server.clrheap.tar.xz");
    }

    @Test
    void writesThePageAndPrintsWhereWithWhatItHolds() throws Exception {
        Path page = dir.resolve("out/every-edge.html");
        Outcome r = run("map", bundle.toString(), "--html", page.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("wrote " + page + ": 13 regions, 8,598 objects (8,598 drawn one by one, 0 regions by bucket), 13 types");
        assertThat(r.err()).contains("every-edge-net8-server.clrheap.tar.xz: .NET 8.0.30 (8.0.3026.36720, commit a83db3e0eb2d), server GC", "page written in");
        assertThat(Files.readString(page)).startsWith("<!DOCTYPE html>");
        assertThat(dir.resolve("out")).isDirectoryNotContaining("glob:**.partial");
    }

    @Test
    void maxObjectsDrawsRegionsByBucket() {
        Outcome r = run("map", bundle.toString(), "--html", dir.resolve("capped.html").toString(), "--max-objects", "1000", "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("\\(\\d{1,3} drawn one by one, \\d+ regions by bucket\\)");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void emulateDrawsAScenarioWithoutADumpFile() {
        Outcome r = run("map", "--emulate", "every-edge", "--runtime", "net10", "--gc", "workstation", "--html", dir.resolve("emulated.html").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("building every-edge (net10, workstation GC)", "emulated every-edge: .NET 10.0.9 (10.0.926.27113, commit 901ca9412484), workstation GC");
        assertThat(r.out()).contains("wrote ");
    }

    @Test
    void usageErrorsExitTwoSayingWhatIsWrong() throws Exception {
        assertThat(run("map", bundle.toString()).err()).contains("Missing required option: '--html=OUT.html'");
        assertThat(run("map", "--html", "x.html").err()).contains("give either a DUMP or --emulate SCENARIO");
        assertThat(run("map", bundle.toString(), "--emulate", "default", "--html", "x.html").exitCode()).isEqualTo(2);
        assertThat(run("map", bundle.toString(), "--runtime", "net9", "--html", "x.html").err()).contains("--runtime and --gc go with --emulate");
        assertThat(run("map", dir.resolve("nothing.core").toString(), "--html", "x.html").err()).contains("no such file: ");
        assertThat(run("map", bundle.toString(), "--html", dir.toString()).err()).contains("is a directory; give the page's file name");
        assertThat(run("map", bundle.toString(), "--html", "x.html", "--max-objects", "-1").err()).contains("--max-objects must be 0 or more");
        Outcome r = run("map", bundle.toString(), "--html", "x.html", "--names", dir.resolve("no-names.txt").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--names ").contains(": no such file").doesNotContain("at io.clrheap");
    }

    @Test
    void aFileThatIsNotADumpExitsThree() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a core dump\n".repeat(100));
        Outcome r = run("map", text.toString(), "--html", dir.resolve("notes.html").toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).startsWith("clrheap map: ").contains("notes.txt").doesNotContain("at io.clrheap");
        assertThat(dir.resolve("notes.html")).doesNotExist();
    }

    @Test
    void helpShowsExamplesAndExitCodes() {
        Outcome r = run("map", "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("--html=OUT.html", "--max-objects=N", "--emulate=SCENARIO", "#region=0x<mem>",
                "./clrheap map golden/real/net8-svr/core.xz --names", "Exit codes: 0 success");
        assertThat(run("--help").out()).contains("map");
    }
}
