package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import org.junit.jupiter.api.Test;

/** The walk's speed line: only with --verbose (or for a walk longer than a second), so a small walk's stderr stays quiet. */
class WalkSpeedLineTest {

    private static final String SMALL = "../golden/real/net10-small/core.xz";

    @Test
    void aSmallWalkSaysNothingOfItsSpeed() {
        Outcome r = run("walk", SMALL, "--stat");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).doesNotContain("objects/s").doesNotContain("walked ");
    }

    @Test
    void verboseSaysIt() {
        Outcome stat = run("walk", SMALL, "--stat", "--verbose");
        assertThat(stat.err()).containsPattern("clrheap: walked [0-9,]+ objects \\([0-9,]+ MiB\\) in [0-9,]+ ms on [0-9]+ threads?: [0-9.]+ M objects/s");
        Outcome refs = run("walk", SMALL, "--refs", "-v");
        assertThat(refs.err()).containsPattern("clrheap: walked [0-9,]+ objects and read [0-9,]+ references in [0-9,]+ ms");
    }
}
