package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's training run for its start-up cache runs every command it trains on to success: a command that fails
 * there (a renamed file, a changed option) makes the launcher give up the cache for that build.
 */
class AotTrainingCommandTest {

    @TempDir
    Path dir;

    @Test
    void theTrainingRunsEveryCommandItTrainsOnToSuccess() {
        Outcome r = run("aot-training", dir.resolve("fixture").toString());

        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(dir.resolve("fixture").resolve("default-net8-server.core")).isRegularFile();
        assertThat(dir.resolve("fixture").resolve("default-net8-server.core.xz")).isRegularFile();
    }
}
