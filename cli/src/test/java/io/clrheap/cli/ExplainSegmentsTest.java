package io.clrheap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import org.junit.jupiter.api.Test;

/** Issue 31: explain on an emulated process of the standalone segments GC (libclrgc.so). */
class ExplainSegmentsTest {

    @Test
    void theDumpPathNarratesEachGenerationsAllocationStart() {
        Outcome r = ClrheapCommand.run("explain", "--emulate", "segments", "--gc", "workstation");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("standalone libclrgc.so, segments").contains("allocation_start").contains("stride 0x108");
    }

    @Test
    void theInProcessPathIsRefusedAsNotEmulatedForTheSegmentsGc() {
        Outcome r = ClrheapCommand.run("explain", "--emulate", "segments", "--in-process");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("segments GC (libclrgc.so)").contains("not emulated").contains("without --in-process");
    }
}
