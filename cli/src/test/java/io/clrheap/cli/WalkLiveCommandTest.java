package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code clrheap walk --pid PID}: the errors of a live walk, against processes that are not .NET (the walks of real
 * .NET processes are golden's LiveWalkTest).
 */
class WalkLiveCommandTest {

    @Test
    void aPidThatIsNoProcessIsAUsageErrorSayingSo() {
        int pid = unusedPid();
        Outcome r = run("walk", "--pid", Integer.toString(pid), "--stat");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("clrheap walk: no such process: " + pid + System.lineSeparator());
        assertThat(run("walk", "--pid", Integer.toString(pid), "--suspend").err()).contains("no such process: " + pid);
    }

    @Test
    void aProcessThatIsNotDotNetCannotBeOpened() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            Outcome r = run("walk", "--pid", Long.toString(sleep.pid()), "--objects");
            assertThat(r.exitCode()).as(r.err()).isEqualTo(3);
            assertThat(r.err()).contains("process " + sleep.pid() + " (sleep) is not a .NET process: no libcoreclr.so in its maps");
            assertThat(r.out()).isEmpty();
        } finally {
            sleep.destroyForcibly();
            sleep.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void pidIsOneSourceAmongDumpAndEmulate() {
        Outcome both = run("walk", "x.core", "--pid", "1");
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("give only one of a DUMP, --emulate SCENARIO or --pid PID");
        assertThat(run("walk", "--emulate", "default", "--pid", "1").exitCode()).isEqualTo(2);
        Outcome suspendAlone = run("walk", "--emulate", "default", "--suspend");
        assertThat(suspendAlone.exitCode()).isEqualTo(2);
        assertThat(suspendAlone.err()).contains("--suspend goes with --pid");
        assertThat(run("walk", "--pid", "0").err()).contains("--pid must be a process id");
        Outcome map = run("map", "--pid", "1", "--html", "x.html");
        assertThat(map.exitCode()).isEqualTo(2);
        assertThat(map.err()).contains("--pid goes with walk only");
        assertThat(run("explain", "--pid", "1").exitCode()).isEqualTo(2);
    }

    static int unusedPid() {
        try (BufferedReader in = Files.newBufferedReader(Path.of("/proc/sys/kernel/pid_max"))) {
            int max = Integer.parseInt(in.readLine().strip());
            for (int pid = max - 1; pid > 1; pid--) {
                if (!Files.exists(Path.of("/proc/" + pid))) {
                    return pid;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("every pid is in use");
    }
}
