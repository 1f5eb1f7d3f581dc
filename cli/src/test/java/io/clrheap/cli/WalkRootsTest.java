package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code walk --roots} on the real .NET 8 dump, held to the runtime's own root list (golden/real/net8-svr/roots.txt). */
class WalkRootsTest {

    private static final Path NET8 = Path.of("../golden/real/net8-svr");
    private static final String CORE = NET8.resolve("core.xz").toString();

    private static List<String[]> runtimeRoots(String kind) throws IOException {
        return Files.readAllLines(NET8.resolve("roots.txt")).stream().filter(l -> l.startsWith("ROOT " + kind + " "))
                .map(l -> l.split("\\s+")).toList();
    }

    private static List<String[]> rows() {
        Outcome r = run("walk", CORE, "--roots", "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.getFirst()).isEqualTo("kind\troot\tobject\tflags\tthread");
        return lines.stream().skip(1).map(l -> l.split("\t")).toList();
    }

    @Test
    void everyHandleRootOfTheRuntimeIsARowWithItsObjectAndWeakFlag() throws IOException {
        Set<String> ours = new HashSet<>();
        for (String[] row : rows()) {
            assertThat(row).hasSize(5);
            ours.add(row[1] + " " + row[2] + " " + row[3].contains("weak"));
        }
        List<String[]> runtime = runtimeRoots("Handle");
        assertThat(runtime).hasSize(47);
        for (String[] f : runtime) {
            boolean weak = (Long.decode(f[2]) & 2) != 0;
            assertThat(ours).as("runtime handle root %s", String.join(" ", f))
                    .contains(String.format("0x%x 0x%x %s", Long.decode(f[3]) & ~1L, Long.decode(f[4]), weak));
        }
    }

    @Test
    void everyObjectTheRuntimeNamesAsAStackRootIsTheObjectOfAStackRowOfItsThreads() throws IOException {
        Set<String> stackObjects = new HashSet<>();
        Set<String> threads = new HashSet<>();
        for (String[] row : rows()) {
            if (row[0].equals("stack")) {
                assertThat(row[3]).as("a stack root is found conservatively").endsWith("conservative");
                assertThat(row[1]).matches("0x[0-9a-f]+|r[a-z0-9]+");
                stackObjects.add(row[2]);
                threads.add(row[4]);
            }
        }
        assertThat(threads).as("the OS ids of net8-svr's main and worker threads (threads.txt)").contains("30152", "30164", "30165", "30166", "30167");
        for (String[] f : runtimeRoots("Stack")) {
            if (Long.decode(f[4]) != 0) {
                assertThat(stackObjects).as("runtime stack root %s", String.join(" ", f)).contains(f[4]);
            }
        }
    }

    @Test
    void handleRowsComeByAddressAndWeakHandlesSayWeak() {
        List<String[]> rows = rows();
        long previous = 0;
        for (String[] row : rows) {
            if (row[0].equals("stack") || row[0].equals("thread-static")) {
                break;
            }
            long address = Long.decode(row[1]);
            assertThat(Long.compareUnsigned(address, previous)).as("rows by root address").isPositive();
            previous = address;
            assertThat(row[3].contains("weak")).as(String.join(" ", row)).isEqualTo(row[0].startsWith("weak-") || row[0].equals("dependent"));
            assertThat(row[4]).isEqualTo("-");
        }
    }

    @Test
    void theSummarySaysHowManyThreadsWereScanned() {
        Outcome r = run("walk", CORE, "--roots");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).containsPattern("clrheap: [0-9,]+ roots: [0-9,]+ handles and finalization queue entries, [0-9,]+ from the stacks, "
                + "registers and thread statics of 7 of 7 managed threads \\(stacks scanned conservatively\\)");
    }

    @Test
    void rootsGoWithTheWalkerEngineOnly() {
        Outcome r = run("walk", CORE, "--roots", "--engine", "dac");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--roots goes with --engine walker only");
    }
}
