package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * conform --expect roots, and the traps of roots: a walker that scans each thread's stack from rsp to its end and its
 * registers, conservatively, finds exactly roots.tsv's rows and live.tsv's objects in every format (the threads'
 * registers and stacks as the ELF core, the minidump and the bundle carry them); one that scans below rsp fails the
 * stale-stack trap, the report naming stack rows the key lacks and objects no root keeps alive; one that counts weak
 * handles as roots fails the weak-roots trap's live set, naming objects only a weak handle reaches.
 */
class ConformRootsTest {

    private static final String[] SCENARIOS = {"trap-stale-stack", "trap-weak-roots"};

    @TempDir
    static Path suite;

    private static final Pattern DIFFERENCE = Pattern.compile("(?m)^ {7}((?:missing|extra) (?:root|live object): .*)$");
    /** {@code extra root: stack 0xSLOT of 0xOBJECT (Type, SIZE bytes, heap H gen region [a, b)), flags F, thread N: reported; roots.tsv has no such row} */
    private static final Pattern EXTRA_STACK_ROW = Pattern.compile(
            "extra root: stack 0x[0-9a-f]+ of 0x[0-9a-f]+ \\(.+, [\\d,]+ bytes, heap \\d+ \\w+ region \\[0x[0-9a-f]+, 0x[0-9a-f]+\\)\\), "
                    + "flags [a-z,-]+, thread \\d+: reported; roots.tsv has no such row");
    /** {@code extra live object: 0xADDRESS (Type, SIZE bytes, heap H gen region [a, b)) reported live; no root that keeps objects alive reaches it[; roots.tsv: ...]} */
    private static final Pattern EXTRA_LIVE = Pattern.compile(
            "extra live object: 0x[0-9a-f]+ \\(.+, [\\d,]+ bytes, heap \\d+ \\w+ region \\[0x[0-9a-f]+, 0x[0-9a-f]+\\)\\) "
                    + "reported live; no root that keeps objects alive reaches it(.*)");

    private static String walker(MistakenRootsWalker.Mistake mistake, String what) {
        return "\"" + Path.of(System.getProperty("java.home"), "bin", "java") + "\" -cp \"" + System.getProperty("java.class.path")
                + "\" io.clrheap.cli.MistakenRootsWalker " + mistake + " " + what + " {dump}";
    }

    private static Outcome conform(MistakenRootsWalker.Mistake mistake, String what, String format, String fixtures) {
        return run("conform", "--walker", walker(mistake, what), "--expect", what, "--format", format, "--suite", suite.toString(), "--fixtures", fixtures);
    }

    private static List<String> differences(Outcome r, String fixture) {
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL " + fixture);
        List<String> found = new ArrayList<>();
        Matcher m = DIFFERENCE.matcher(r.out());
        while (m.find()) {
            found.add(m.group(1));
        }
        assertThat(found).as(r.out()).isNotEmpty();
        return found;
    }

    @BeforeAll
    static void theTraps() {
        for (String scenario : SCENARIOS) {
            Outcome r = run("generate", "--scenario", scenario, "--out", suite.toString(), "-q");
            assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        }
    }

    @Test
    void aConservativeScanFromRspFindsTheKeysRootsAndLiveObjectsInEveryFormat() {
        for (String format : new String[] {"elf", "minidump", "bundle"}) {
            for (String what : new String[] {"roots", "live"}) {
                Outcome r = conform(MistakenRootsWalker.Mistake.NONE, what, format, "*");
                assertThat(r.exitCode()).as(format + " " + what + ": " + r.out() + r.err()).isZero();
                assertThat(r.out()).contains("PASS trap-stale-stack", "PASS trap-weak-roots", "2 of 2 fixtures passed.");
            }
        }
    }

    @Test
    void aWalkerThatScansBelowRspFailsTheStaleStackTrapNamingStackRowsAndObjectsTheKeyLacks() {
        for (String d : differences(conform(MistakenRootsWalker.Mistake.SCANS_BELOW_RSP, "roots", "elf", "trap-stale-stack-*"), "trap-stale-stack")) {
            assertThat(d).matches(EXTRA_STACK_ROW);
        }
        List<String> live = differences(conform(MistakenRootsWalker.Mistake.SCANS_BELOW_RSP, "live", "minidump", "trap-stale-stack-*"), "trap-stale-stack");
        for (String d : live) {
            assertThat(d).matches(EXTRA_LIVE);
        }
    }

    @Test
    void aWalkerThatCountsWeakHandlesFailsTheWeakRootsTrapsLiveSetNamingObjectsOnlyAWeakHandleReaches() {
        List<String> live = differences(conform(MistakenRootsWalker.Mistake.COUNTS_WEAK_HANDLES, "live", "elf", "trap-weak-roots-*"), "trap-weak-roots");
        for (String d : live) {
            Matcher m = EXTRA_LIVE.matcher(d);
            assertThat(m.matches()).as(d).isTrue();
        }
        // the objects the weak handles hold themselves: roots.tsv names the weak root pointing at each
        assertThat(live).anyMatch(d -> d.matches(".*; roots.tsv: the weak-(short|long) root 0x[0-9a-f]+ points at it"));
        // its roots are right: only what it makes of them is not
        Outcome roots = conform(MistakenRootsWalker.Mistake.COUNTS_WEAK_HANDLES, "roots", "elf", "trap-weak-roots-*");
        assertThat(roots.exitCode()).as(roots.out() + roots.err()).isZero();
    }

    @Test
    void aWalkerThatPrintsNoStackRootsMissesTheKeysStackRows() {
        Outcome r = run("conform", "--walker", "sh -c \"" + walker(MistakenRootsWalker.Mistake.NONE, "roots").replace("\"", "'")
                + " | grep -v '^stack'\"", "--expect", "roots", "--suite", suite.toString(), "--fixtures", "trap-stale-stack-*");
        for (String d : differences(r, "trap-stale-stack")) {
            assertThat(d).matches("missing root: stack (0x[0-9a-f]+|r[a-z0-9]+) of 0x[0-9a-f]+ \\(.+\\), flags (-|interior), thread \\d+: in roots.tsv, not reported");
        }
    }
}
