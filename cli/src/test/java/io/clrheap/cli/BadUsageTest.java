package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad usage, on every command: exit code 2, one line saying what is wrong (with picocli's suggestion when an option
 * is mistyped) and where the help is — never the whole help, which would bury that line.
 */
class BadUsageTest {

    static Stream<org.junit.jupiter.params.provider.Arguments> badUsages() {
        return Stream.of(
                new String[] {"walk", "--stta"},
                new String[] {"walk", "README.nope"},
                new String[] {"walk", "x.core", "--stat", "--objects"},
                new String[] {"generate", "--scenario", "default", "--gc", "workstation", "--heaps", "4", "--out", "/tmp/clrheap-bad-usage"},
                new String[] {"generate", "--bogus"},
                new String[] {"scenarios", "--bogus"},
                new String[] {"demo", "--runtime", "net7"},
                new String[] {"conform", "--walker", "mywalker", "--suite", "golden"},
                new String[] {"golden", "--bogus"},
                new String[] {"capture", "--bogus"},
                new String[] {"map", "--bogus"},
                new String[] {"materialize", "--bogus"},
                new String[] {"explain", "--object", "zz", "x.core"},
                new String[] {"gcroot", "x.core", "not-hex"},
                new String[] {"objsize", "--emulate", "default"},
                new String[] {"layout", "--bogus"},
                new String[] {"derive-profile", "--bogus"},
                new String[] {"derive-profile", "--pid", "0"}).map(a -> org.junit.jupiter.params.provider.Arguments.of((Object) a));
    }

    @ParameterizedTest(name = "{arguments}")
    @MethodSource("badUsages")
    void isExit2WithOneLineAndAHintNotTheWholeHelp(String[] args) {
        Outcome r = run(args);
        assertThat(r.exitCode()).as("exit code of %s; stderr %s", String.join(" ", args), r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("clrheap " + args[0] + ": ").doesNotContain("Usage:")
                .contains("Try './clrheap " + args[0] + " --help'");
        assertThat(r.err().lines().count()).as(r.err()).isBetween(2L, 3L);
        assertThat(r.out()).isEmpty();
    }
}
