package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * conform --expect fields, and the field traps: clrheap's own rows (walk --fields) equal fields.tsv on every trap and on
 * the fields scenario, Linux and Windows; a walker that ignores base classes' fields fails trap-base-fields with missing
 * fields, one that reads a struct as a reference fails trap-struct-field with wrong and missing fields, one that takes
 * the FieldDesc offset from the wrong dword fails trap-packed-offset with wrong fields.
 */
class ConformFieldsTest {

    @TempDir
    static Path suite;

    private static String walker(MistakenFieldsWalker.Mistake mistake) {
        return "\"" + Path.of(System.getProperty("java.home"), "bin", "java") + "\" -cp \"" + System.getProperty("java.class.path")
                + "\" io.clrheap.cli.MistakenFieldsWalker " + mistake + " {dump}";
    }

    private static Outcome conform(MistakenFieldsWalker.Mistake mistake, String format, String fixtures) {
        return run("conform", "--walker", walker(mistake), "--expect", "fields", "--format", format, "--suite", suite.toString(), "--fixtures", fixtures);
    }

    @BeforeAll
    static void theTraps() {
        Outcome r = run("generate", "--scenario", "fields,trap-base-fields,trap-struct-field,trap-packed-offset", "--runtime", "net8,net10",
                "--gc", "server", "--format", "elf,minidump", "--out", suite.toString(), "-q");
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    }

    @Test
    void theWalkersOwnRowsEqualFieldsTsvOnEveryFieldFixtureLinuxAndWindows() {
        for (String format : new String[] {"elf", "minidump"}) {
            Outcome r = conform(MistakenFieldsWalker.Mistake.NONE, format, "*");
            assertThat(r.exitCode()).as(format + ": " + r.out() + r.err()).isZero();
            assertThat(r.out()).contains("PASS trap-base-fields-net8-server", "PASS trap-packed-offset-net10-server", "8 of 8 fixtures passed.");
        }
    }

    @Test
    void aWalkerThatIgnoresBaseClassFieldsFailsTheBaseFieldsTrapWithMissingFields() {
        Outcome r = conform(MistakenFieldsWalker.Mistake.IGNORES_BASE_FIELDS, "elf", "trap-base-fields-*");
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL trap-base-fields-net8-server", "FAIL trap-base-fields-net10-server")
                .containsPattern("missing field: 0x[0-9a-f]+ .* Name System.String at offset 8");
    }

    @Test
    void aWalkerThatReadsAStructAsAReferenceFailsTheStructFieldTrap() {
        Outcome r = conform(MistakenFieldsWalker.Mistake.STRUCT_AS_REFERENCE, "elf", "trap-struct-field-*");
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL trap-struct-field-net8-server", "FAIL trap-struct-field-net10-server")
                .containsPattern("wrong field: 0x[0-9a-f]+ .* Span Fields.Span").containsPattern("missing field: 0x[0-9a-f]+ .* Span.Label");
    }

    @Test
    void aWalkerThatReadsTheOffsetFromTheWrongDwordFailsThePackedOffsetTrap() {
        Outcome r = conform(MistakenFieldsWalker.Mistake.OFFSET_FROM_DWORD1, "elf", "trap-packed-offset-*");
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL trap-packed-offset-net8-server", "FAIL trap-packed-offset-net10-server")
                .containsPattern("wrong field: 0x[0-9a-f]+ .* reported; fields.tsv has System.Char at offset");
    }
}
