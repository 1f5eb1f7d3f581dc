package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Type names on the command line: read from the dump's metadata in SOS's spelling with no names file, the modules a
 * trimmed dump lacks said once, a names file filling in, and {@code explain --object} narrating the name chase.
 */
class TypeNamesCommandTest {

    private static final Path WITH_HEAP = Path.of("../golden/real/net9-withheap");
    private static final Path WKS = Path.of("../golden/real/net9-wks");

    /** The first object of live-objects.txt whose MethodTable the runtime named {@code type}. */
    private static String liveObject(Path folder, String type) throws IOException {
        try (Stream<String> lines = Files.lines(folder.resolve("live-objects.txt"))) {
            return lines.filter(l -> l.startsWith("0x")).map(l -> l.split(" ", 4)).filter(f -> f[3].equals(type))
                    .map(f -> f[0]).findFirst().orElseThrow();
        }
    }

    @Test
    void aDumpWithItsImagesIsNamedFromMetadataWithoutANamesFile() {
        Outcome r = run("walk", WITH_HEAP.resolve("core.xz").toString(), "--stat");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains(" System.String\n", " System.Int32[,]\n",
                " System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreLib],[System.Object, System.Private.CoreLib]]\n",
                " System.Type+<>c\n").doesNotContain("Unknown");
        assertThat(r.err()).doesNotContain("no metadata");
    }

    @Test
    void aTrimmedDumpSaysOnceWhichModulesLackMetadata() {
        Outcome r = run("walk", WKS.resolve("core.xz").toString(), "--stat");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Unknown (MethodTable: 0x");
        assertThat(r.err().split("type names: ", -1)).as(r.err()).hasSize(2);
        assertThat(r.err()).contains("modules have no metadata in the dump", "types print as Unknown (--names FILE names them)",
                "System.Private.CoreLib.dll (module 0x", "mapped but not captured in the dump");
    }

    @Test
    void aNamesFileNamesWhatTheMetadataCannot() throws IOException {
        Outcome r = run("walk", WKS.resolve("core.xz").toString(), "--stat", "--names", WKS.resolve("live-objects.txt").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains(" System.String\n");
        // what stays Unknown is only what the runtime's list does not name either (objects dead at the snapshot)
        Set<String> listed = Files.readAllLines(WKS.resolve("live-objects.txt")).stream().filter(l -> l.startsWith("0x"))
                .map(l -> l.split(" ")[2]).collect(Collectors.toSet());
        assertThat(r.out().lines().filter(l -> l.contains("Unknown (MethodTable: "))
                .map(l -> l.substring(l.indexOf("MethodTable: ") + 13, l.length() - 1))).isNotEmpty().noneMatch(listed::contains);
        assertThat(r.err()).contains("types print as Unknown");
    }

    @Test
    void explainNarratesTheNameChaseOfAGenericInstantiation() throws IOException {
        String object = liveObject(WITH_HEAP, "System.Collections.Generic.Dictionary`2[System.String,System.Object]");
        Outcome r = run("explain", WITH_HEAP.resolve("core.xz").toString(), "--object", object);
        assertThat(r.exitCode()).as(r.err()).isZero();
        // explain wraps long lines: compare with the wrapping undone
        assertThat(r.out().replaceAll("\\s+", " ")).contains("type name", "(method_table.flags2.token_shift) = TypeDef RID", "Module = 0x",
                "(System.Private.CoreLib.dll)", "metadata root BSJB at 0x", "TypeName #Strings[0x", "= \"Dictionary`2\"",
                "generic instantiation", "2 type arguments", "System.String",
                "name: System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreLib],[System.Object, System.Private.CoreLib]]");
    }

    @Test
    void explainNarratesAnArraysElement() throws IOException {
        Outcome r = run("explain", WITH_HEAP.resolve("core.xz").toString(), "--object", liveObject(WITH_HEAP, "System.Int32[,]"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().replaceAll("\\s+", " ")).contains("an array (multi-dimensional", "named System.Int32", "name: System.Int32[,]");
    }
}
