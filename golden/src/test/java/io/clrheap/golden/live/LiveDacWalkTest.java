package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.dac.TestDac;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code walk --pid PID --engine dac}: Microsoft's 9.0.1 DAC reads a running .NET 9.0.1 process (the data target over
 * process_vm_readv, in the DAC's child process) and lists the same objects as the walker, every object the process
 * reports about itself among them.
 */
class LiveDacWalkTest {

    @ParameterizedTest(name = "server GC {0}")
    @ValueSource(booleans = {true, false})
    void theDacReadsARunningNet9ProcessAsTheWalkerDoes(boolean serverGc) throws Exception {
        String dac = TestDac.path().toString();
        try (DotnetTestProcess process = DotnetTestProcess.start(RealRuntime.NET9, serverGc)) {
            String pid = Long.toString(process.pid());
            Outcome walker = ClrheapCommand.run("walk", "--pid", pid, "--objects", "-q");
            Outcome sos = ClrheapCommand.run("walk", "--pid", pid, "--engine", "dac", "--dac", dac, "--objects", "-q");
            assertThat(sos.exitCode()).as(sos.err()).isZero();
            // the program is idle after reporting: its heap does not change between the walks. The DAC names the types
            // from the modules' metadata in the process (the walker, without --names, cannot): compare all but names
            assertThat(withoutNames(sos.out())).isEqualTo(withoutNames(walker.out()));
            assertThat(sos.out()).contains("\tSystem.String\n", "\tSystem.Object[]\n");
            Map<Long, long[]> listed = new HashMap<>();
            sos.out().lines().skip(1).forEach(line -> {
                String[] f = line.split("\t");
                listed.put(Long.decode(f[0]), new long[] {Long.decode(f[1]), Long.parseLong(f[2])});
            });
            for (ReportedObject o : process.objects()) {
                assertThat(listed.get(o.address())).as("%s (%s) at 0x%x", o.label(), o.type(), o.address())
                        .containsExactly(o.methodTable(), o.size());
            }
            Outcome heapWalk = ClrheapCommand.run("walk", "--pid", pid, "--engine", "dac-heapwalk", "--dac", dac, "--verify", "-q");
            assertThat(heapWalk.exitCode()).as(heapWalk.out() + heapWalk.err()).isZero();
            assertThat(heapWalk.out()).contains(" 0 failed calls");
        }
    }

    private static java.util.List<String> withoutNames(String objects) {
        return objects.lines().map(l -> l.substring(0, l.lastIndexOf('\t'))).toList();
    }
}
