package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@code walk}'s dumpheap filters as SOS users type them (issue 30): generations by name, sizes with suffixes, empty answers. */
class DumpHeapFiltersTest {

    private static final Path NET8 = Path.of("../golden/real/net8-svr");
    private static final String CORE = NET8.resolve("core.xz").toString();

    /** Objects per generation column of {@code walk --objects}, free ones left out (a filter leaves them out, as SOS's does). */
    private static Map<String, Long> objectsByGeneration() {
        Outcome all = run("walk", CORE, "--objects", "-q");
        assertThat(all.exitCode()).isZero();
        return all.out().lines().skip(1).filter(l -> l.split("\t")[5].equals("object")).collect(Collectors.groupingBy(l -> l.split("\t")[3], Collectors.counting()));
    }

    private static long listed(Outcome o) {
        assertThat(o.exitCode()).as(o.err()).isZero();
        return o.out().lines().skip(1).count();
    }

    @Test
    void generationsAreNamedAsSosNamesThem() {
        Map<String, Long> byGeneration = objectsByGeneration();
        for (String[] names : List.of(new String[] {"loh", "large", "3", "LOH"}, new String[] {"poh", "pinned", "4"},
                new String[] {"frozen", "foh"}, new String[] {"gen0", "0"})) {
            String column = names[0].equals("gen0") ? "gen0" : names[0];
            for (String name : names) {
                assertThat(listed(run("walk", CORE, "--objects", "--gen", name, "-q"))).as("--gen %s", name).isEqualTo(byGeneration.getOrDefault(column, 0L));
            }
        }
    }

    @Test
    void gen2LeavesTheFrozenObjectsOut() {
        Map<String, Long> byGeneration = objectsByGeneration();
        assertThat(byGeneration.get("frozen")).as("net8-svr's frozen objects").isEqualTo(714);
        Outcome gen2 = run("walk", CORE, "--objects", "--gen", "2", "-q");
        assertThat(listed(gen2)).isEqualTo(byGeneration.get("gen2"));
        assertThat(gen2.out().lines().skip(1)).allMatch(l -> l.split("\t")[3].equals("gen2"));
    }

    @Test
    void aGenerationThatIsNoneIsBadUsageNamingTheChoices() {
        Outcome o = run("walk", CORE, "--stat", "--gen", "gen7");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("'gen7' is no generation: give 0, 1, 2, loh (or 3), poh (or 4), or frozen");
    }

    @Test
    void sizesTakeBinarySuffixesAndHex() {
        long decimal = listed(run("walk", CORE, "--objects", "--min", "10240", "-q"));
        assertThat(decimal).isPositive();
        for (String same : List.of("10k", "10K", "0x2800", "10kb")) {
            assertThat(listed(run("walk", CORE, "--objects", "--min", same, "-q"))).as("--min %s", same).isEqualTo(decimal);
        }
        assertThat(listed(run("walk", CORE, "--objects", "--min", "1m", "-q")))
                .isEqualTo(listed(run("walk", CORE, "--objects", "--min", "1048576", "-q")));
    }

    @Test
    void aSizeThatIsNoneIsBadUsageShowingTheForms() {
        Outcome o = run("walk", CORE, "--stat", "--min", "ten");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("'ten' is not a size: give bytes as 4096, 0x1000, 4k, 64m or 1g");
    }

    @Test
    void anEmptyStatPrintsTheHeaderAndTotalZero() {
        Outcome o = run("walk", CORE, "--stat", "--type", "NoSuchType");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).endsWith("Statistics:\n          MT Count TotalSize Class Name\nTotal 0 objects, 0 bytes\n");
        assertThat(o.err()).contains("clrheap: no object matched --type NoSuchType");
    }

    @Test
    void anEmptyListingKeepsItsHeaderAndSaysNothingMatched() {
        Outcome o = run("walk", CORE, "--objects", "--mt", "0x9999");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).isEqualTo("address\tmt\tsize\tgeneration\theap\tkind\ttype\n");
        assertThat(o.err()).contains("clrheap: no object matched --mt 0x9999");
    }

    /** net8-svr's names come from its metadata (the DAC's spelling), net9-wks's from live-objects.txt (no assemblies). */
    @Test
    void aTypeFilterMatchesTheSameWayWhicheverSourceNamedTheTypes() {
        String filter = "Dictionary`2[[System.String, System.Private.CoreLib],[System.Object";
        for (String dump : List.of("net8-svr", "net9-wks")) {
            Path dir = Path.of("../golden/real", dump);
            Outcome o = run("walk", dir.resolve("core.xz").toString(), "--names", dir.resolve("live-objects.txt").toString(), "--stat", "--type", filter, "-q");
            assertThat(o.exitCode()).isZero();
            assertThat(o.out()).as(dump).contains("System.Collections.Generic.Dictionary`2[").doesNotContain("Total 0 objects");
        }
    }
}
