package io.clrheap.conformance.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The short line diff summary of an expected file: lines only one side has, and where they first differ. */
class LineDiffTest {

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void equalFilesHaveNoDifference() {
        assertThat(LineDiff.compare("a.txt", text("x\ny\n"), text("x\ny\n"))).isEmpty();
    }

    @Test
    void aChangedLineIsOneRemovedAndOneAddedAtItsLine() {
        FileDifference d = LineDiff.compare("a.txt", text("x\ny\nz\n"), text("x\nY\nz\n")).orElseThrow();
        assertThat(d.removed()).isEqualTo(1);
        assertThat(d.added()).isEqualTo(1);
        assertThat(d.firstLine()).isEqualTo(2);
        assertThat(d.firstOffset()).isEqualTo(2);
        assertThat(d.committedLine()).isEqualTo("'y'");
        assertThat(d.freshLine()).isEqualTo("'Y'");
        assertThat(d.describe()).isEqualTo("a.txt: 1 line removed, 1 added, first at line 2");
    }

    @Test
    void insertedAndDeletedLinesAreCountedOnTheirSide() {
        FileDifference inserted = LineDiff.compare("a.txt", text("x\nz\n"), text("x\ny1\ny2\nz\n")).orElseThrow();
        assertThat(inserted.describe()).isEqualTo("a.txt: 0 lines removed, 2 added, first at line 2");
        FileDifference deleted = LineDiff.compare("a.txt", text("x\ny\nz\n"), text("x\nz\n")).orElseThrow();
        assertThat(deleted.describe()).isEqualTo("a.txt: 1 line removed, 0 added, first at line 2");
        assertThat(deleted.freshLine()).isEqualTo("'z'");
    }

    @Test
    void aDifferenceInLineEndsOnlyIsNamedByItsByte() {
        FileDifference d = LineDiff.compare("a.txt", text("x\ny"), text("x\ny\n")).orElseThrow();
        assertThat(d.describe()).isEqualTo("a.txt: the same lines, other bytes from byte 3 (line ends)");
    }

    @Test
    void aFileOnlyOneSideHasCountsAllItsLines() {
        assertThat(LineDiff.onlyIn("b.txt", Presence.ONLY_IN_BUILD, text("1\n2\n")).added()).isEqualTo(2);
        assertThat(LineDiff.onlyIn("b.txt", Presence.ONLY_IN_CORPUS, text("1\n2\n3\n")).describe()).isEqualTo("b.txt: in the corpus, no longer written");
    }

    @Test
    void aLongLineIsShortened() {
        String longLine = "x".repeat(500);
        FileDifference d = LineDiff.compare("a.txt", text(longLine + "\n"), text("y\n")).orElseThrow();
        assertThat(d.committedLine()).hasSize(LineDiff.SHOWN_CHARACTERS + 5).endsWith("...'");
    }
}
