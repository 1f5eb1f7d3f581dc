package io.clrheap.layout.view.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A report replaces its own section of BENCHMARKS.md and keeps everyone else's. */
class BenchmarksFileTest {

    private static final String VIEWS = "## Views\n\nold views\n";
    private static final String EMULATOR = "## Emulator\n\nold emulator\n";

    @Test
    void aNewFileGetsThePreambleAndTheSection() {
        assertThat(BenchmarksFile.replaceSection("", "## Emulator\n\nnew\n")).isEqualTo(BenchmarksFile.PREAMBLE + "## Emulator\n\nnew\n");
    }

    @Test
    void aSectionInTheMiddleIsReplacedUpToTheNextHeading() {
        String doc = BenchmarksFile.PREAMBLE + EMULATOR + "\n" + VIEWS;
        assertThat(BenchmarksFile.replaceSection(doc, "## Emulator\n\nnew\nlines\n"))
                .isEqualTo(BenchmarksFile.PREAMBLE + "## Emulator\n\nnew\nlines\n\n" + VIEWS);
    }

    @Test
    void theLastSectionIsReplacedToTheEndAndTheOthersStay() {
        String doc = BenchmarksFile.PREAMBLE + VIEWS + "\n" + EMULATOR;
        assertThat(BenchmarksFile.replaceSection(doc, "## Emulator\n\nnew"))
                .isEqualTo(BenchmarksFile.PREAMBLE + VIEWS + "\n" + "## Emulator\n\nnew\n");
    }

    @Test
    void aMissingSectionIsAppendedAfterABlankLine() {
        String doc = BenchmarksFile.PREAMBLE + VIEWS;
        assertThat(BenchmarksFile.replaceSection(doc, EMULATOR)).isEqualTo(doc + "\n" + EMULATOR);
    }

    @Test
    void onlyAWholeHeadingLineMatches() {
        // "## Emulator" must not match "## Emulator: other", nor text that merely mentions it
        String doc = BenchmarksFile.PREAMBLE + "## Emulator: other\n\nsee ## Emulator\n";
        assertThat(BenchmarksFile.replaceSection(doc, EMULATOR)).isEqualTo(doc + "\n" + EMULATOR);
    }
}
