package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.cli.ClrheapCommand.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** {@code clrheap golden check} on the committed real dumps (which pass) and on a tampered copy (which fails, naming the object). */
class GoldenCheckTest {

    static final List<String> WALKABLE = RealDump.WALKABLE;

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void everyCommittedRealFolderPasses(String name) {
        Outcome o = ClrheapCommand.run("golden", "check", RealDump.root().resolve(name).toString());
        assertThat(o.exitCode()).as("%s%s", o.out(), o.err()).isZero();
        assertThat(o.out()).contains("the walk agrees with live-objects.txt");
    }

    @Test
    void aFolderWithoutTheModulesHeadersIsUnreadableWithoutModule() {
        Outcome o = ClrheapCommand.run("golden", "check", RealDump.root().resolve("net8-nomodule").toString());
        assertThat(o.exitCode()).as("%s%s", o.out(), o.err()).isEqualTo(3);
    }

    /** A copy of net8-svr whose list was tampered with: the core (and its decompressed cache) linked, not copied. */
    private static Path tamperedCopy(Path tmp, java.util.function.UnaryOperator<List<String>> tamper) throws IOException {
        Path real = RealDump.root().resolve("net8-svr").toAbsolutePath();
        RealDump.of("net8-svr"); // decompresses the core once, beside it
        Files.createSymbolicLink(tmp.resolve("core.xz"), real.resolve("core.xz"));
        if (Files.exists(real.resolve("core.decompressed"))) {
            Files.createSymbolicLink(tmp.resolve("core.decompressed"), real.resolve("core.decompressed"));
        }
        Files.write(tmp.resolve("live-objects.txt"), tamper.apply(new ArrayList<>(Files.readAllLines(real.resolve("live-objects.txt")))));
        return tmp;
    }

    @Test
    void aListedObjectWithAnotherSizeFailsNamingIt(@TempDir Path tmp) throws IOException {
        List<String> original = Files.readAllLines(RealDump.root().resolve("net8-svr/live-objects.txt"));
        String[] t = original.get(100).split(" ", 4);
        Path dir = tamperedCopy(tmp, lines -> {
            lines.set(100, t[0] + " " + (Long.parseLong(t[1]) + 8) + " " + t[2] + " " + t[3]);
            return lines;
        });
        Outcome o = ClrheapCommand.run("golden", "check", dir.toString());
        assertThat(o.exitCode()).as("%s%s", o.out(), o.err()).isEqualTo(1);
        assertThat(o.out()).contains("misread  " + t[0] + " " + t[3]).contains("1 misread");
    }

    @Test
    void aListedObjectTheWalkDoesNotFindIsMissing(@TempDir Path tmp) throws IOException {
        Path dir = tamperedCopy(tmp, lines -> {
            lines.add("0x10 24 0x55b1d0cabf68 Invented");
            return lines;
        });
        Outcome o = ClrheapCommand.run("golden", "check", dir.toString());
        assertThat(o.exitCode()).isEqualTo(1);
        assertThat(o.out()).contains("missing  0x10 Invented (mt 0x55b1d0cabf68, size 24): not found by the walk").contains("1 missing");
    }

    @Test
    void aDroppedLineMakesAnExtraObjectWithARealMethodTableAndStillPasses(@TempDir Path tmp) throws IOException {
        Path dir = tamperedCopy(tmp, lines -> {
            lines.remove(200);
            return lines;
        });
        Outcome o = ClrheapCommand.run("golden", "check", dir.toString());
        assertThat(o.exitCode()).as("dead objects are not in the list either").isZero();
        assertThat(o.out()).contains("extra objects (not in the list; dead or free):");
    }

    @Test
    void aFolderWithoutItsFilesIsUnreadable(@TempDir Path tmp) {
        Outcome o = ClrheapCommand.run("golden", "check", tmp.toString());
        assertThat(o.exitCode()).isEqualTo(3);
        assertThat(o.err()).contains("holds no core.xz");
    }
}
