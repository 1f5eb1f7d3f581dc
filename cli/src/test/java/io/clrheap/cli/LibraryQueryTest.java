package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.query.ObjectCriteria;
import io.clrheap.walker.query.StringStatistics;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The library's dumpheap-style queries (ObjectCriteria, StringStatistics) give what walk's options print on the same dump. */
class LibraryQueryTest {

    private static final String CORE = "../golden/real/net8-svr/core.xz";

    private static long total(String stat) {
        String last = stat.lines().filter(l -> l.startsWith("Total ")).findFirst().orElseThrow();
        return Long.parseLong(last.split(" ")[1].replace(",", ""));
    }

    @Test
    void aTypeAndLiveQueryCountsWhatWalkPrints() throws Exception {
        Outcome cli = run("walk", CORE, "--stat", "--type", "Dictionary", "--live", "-q");
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        long[] count = {0};
        try (DumpSession session = Dumps.open(Path.of(CORE))) {
            session.walk(session.filter(ObjectCriteria.ALL.withType("Dictionary").liveOnly())
                    .filtering((long address, long mt, long size, Region region) -> count[0]++));
        }
        assertThat(count[0]).isPositive().isEqualTo(total(cli.out()));
    }

    @Test
    void stringStatisticsGroupTheStringsAsWalkStatStringsDoes() throws Exception {
        Outcome cli = run("walk", CORE, "--stat", "--strings", "-q");
        try (DumpSession session = Dumps.open(Path.of(CORE))) {
            StringStatistics s = session.stringStatistics(ObjectCriteria.ALL);
            long strings = s.rows().stream().mapToLong(StringStatistics.Row::count).sum();
            assertThat(cli.out()).contains(String.format("Total %,d strings, %,d bytes, %,d distinct values%n", strings,
                    s.rows().stream().mapToLong(StringStatistics.Row::totalSize).sum(), s.rows().size()));
            assertThat(s.rows()).isSortedAccordingTo((a, b) -> Long.compare(a.totalSize(), b.totalSize()));
        }
    }
}
