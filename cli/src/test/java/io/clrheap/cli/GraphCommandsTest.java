package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The object graph on the command line, on a real dump: walk --refs, gcroot, objsize and walk's dumpheap-style filters. */
class GraphCommandsTest {

    private static final Path NET8 = Path.of("../golden/real/net8-svr");
    private static final String CORE = NET8.resolve("core.xz").toString();

    private static List<String> runtimeLines(String file) throws IOException {
        return Files.readAllLines(NET8.resolve(file)).stream().filter(l -> l.startsWith("0x") || l.startsWith("ROOT ")).toList();
    }

    @Test
    void walkRefsPrintsEveryEdgeListTheRuntimePrintedVerbatim() throws IOException {
        Outcome r = run("walk", CORE, "--refs", "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> ours = r.out().lines().toList();
        assertThat(ours).containsAll(runtimeLines("refs.txt"));
    }

    @Test
    void gcrootFindsAPathFromAStrongHandleTheRuntimeReported() throws IOException {
        String[] root = runtimeLines("roots.txt").stream().map(l -> l.split("\\s+")).filter(f -> f[1].equals("Handle") && f[2].equals("0x0"))
                .findFirst().orElseThrow();
        Outcome r = run("gcroot", CORE, root[4]);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("HandleTable:\n").contains(String.format("    %016x (strong handle)%n", Long.decode(root[3])),
                String.format("          -> %016x ", Long.decode(root[4])), "roots searched: strong, pinned");
        assertThat(r.out()).containsPattern("\nFound [1-9][0-9]* unique roots\\.\n");
    }

    /** Issue 28: a byte[] the runtime lists as live, held from the main thread's stack, and reached by weak handles too. */
    @Test
    void gcrootCountsNoWeakHandleOrFinalizationRegistrationAsARoot() throws IOException {
        Outcome r = run("gcroot", CORE, "0x7f929d40c170");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("\nNot roots: [1-9][0-9]* weak handles or finalization "
                + "registrations reach the object but keep nothing alive \\(--all lists them\\)\\.\n")
                .doesNotContain("HandleTable:").doesNotContain("weak long handle");
    }

    /** Issue 28: held only by the main thread's stack (tid 30152 = 0x75c8), it is found there, with the slot named. */
    @Test
    void gcrootOfAnObjectHeldByAStackNamesTheThreadAndTheSlot() throws IOException {
        Outcome r = run("gcroot", CORE, "0x7f929d40c170");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Thread 75c8 (tid 30152, managed thread 1):\n")
                .containsPattern("\n    rsp\\+0x[0-9a-f]+: [0-9a-f]{16} \\(stack slot 00007ffcb3de[0-9a-f]{4}, conservative")
                .containsPattern("\n          -> 00007f929d40c170 System.Byte\\[\\] \\(element \\[1\\]\\)\n")
                .containsPattern("\nFound [1-9][0-9]* unique roots\\.\n")
                .contains("the stacks and registers of 7 of 7 managed threads");
    }

    @Test
    void gcrootAllListsTheWeakHandlesApartUnderTheirSosNames() throws IOException {
        Outcome r = run("gcroot", "--all", CORE, "0x7f929d40c170");
        assertThat(r.exitCode()).as(r.err()).isZero();
        String notRoots = r.out().substring(r.out().indexOf("Not roots: "));
        assertThat(r.out().substring(0, r.out().indexOf("Not roots: "))).doesNotContain("weak long handle", "weak short handle");
        assertThat(notRoots).contains("HandleTable:\n").containsPattern("\n    [0-9a-f]{16} \\(weak (long|short) handle\\)\n")
                .containsPattern("\n          -> 00007f929d40c170 ");
    }

    @Test
    void gcrootOfAnAddressInsideAnObjectNamesTheObjectAndExits1() throws IOException {
        String object = runtimeLines("live-objects.txt").getFirst().split(" ")[0];
        Outcome r = run("gcroot", CORE, "0x" + Long.toHexString(Long.decode(object) + 8));
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("is no object start; it lies in the object at " + object);
    }

    @Test
    void objsizeCountsTheObjectAndWhatItReaches() throws IOException {
        String[] line = runtimeLines("refs.txt").getFirst().split("[: ]+");
        Outcome r = run("objsize", CORE, line[0]);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("^sizeof\\(" + line[0].substring(2) + "\\) = [0-9]+ \\(0x[0-9a-f]+\\) bytes \\(.+\\)\\n[0-9,]+ objects\\n$");
        int objects = Integer.parseInt(r.out().lines().toList().get(1).split(" ")[0].replace(",", ""));
        assertThat(objects).as("the object and at least its distinct direct references").isGreaterThanOrEqualTo(2);
    }

    @Test
    void explainNamesEachReferencesFieldAndShowsAStringsText() {
        Outcome dictionary = run("explain", CORE, "--object", "0x7f929d400220");
        Outcome string = run("explain", CORE, "--object", "0x7f929cc010d8");
        assertThat(dictionary.out()).contains("+0x8 -> 0x7f929cc00208 System.Int32[] (_buckets)\n");
        assertThat(string.out()).contains("· text: \"PINVOKE_OVERRIDE\"\n");
    }

    @Test
    void explainListsAnObjectsReferencesWithTheirFieldOffsets() throws IOException {
        String[] line = runtimeLines("refs.txt").getFirst().split("[: ]+");
        Outcome r = run("explain", CORE, "--object", line[0]);
        assertThat(r.exitCode()).as(r.err()).isZero();
        String text = r.out().replaceAll("\\s+", " ");
        assertThat(text).contains("references of " + line[0] + ", from the GC descriptor before MethodTable");
        for (int i = 1; i < line.length; i++) {
            assertThat(text).containsPattern("\\+0x[0-9a-f]+ -> " + line[i] + " ");
        }
    }

    @Test
    void theFiltersKeepWhatTheySay() {
        Outcome all = run("walk", CORE, "--stat", "-q");
        Outcome live = run("walk", CORE, "--stat", "--live", "-q");
        Outcome type = run("walk", CORE, "--stat", "--type", "Dictionary", "-q");
        Outcome loh = run("walk", CORE, "--objects", "--gen", "3", "-q");
        Outcome strings = run("walk", CORE, "--stat", "--strings", "-q");
        assertThat(List.of(all, live, type, loh, strings)).allMatch(o -> o.exitCode() == 0);
        assertThat(total(live.out())).isPositive().isLessThan(total(all.out()));
        assertThat(type.out().lines().filter(l -> l.matches("^ *[0-9a-f]+ .*"))).isNotEmpty().allMatch(l -> l.contains("Dictionary"));
        assertThat(loh.out().lines().skip(1)).isNotEmpty().allMatch(l -> Long.parseLong(l.split("\t")[2]) >= 85_000 || l.endsWith("\tFree"));
        assertThat(strings.out()).startsWith("   Count  TotalSize Value\n").containsPattern("\\nTotal [0-9,]+ strings, [0-9,]+ bytes, [0-9,]+ distinct values\\n$");
    }

    @Test
    void aFilterWithAnotherReportIsBadUsage() {
        Outcome r = run("walk", CORE, "--eeheap", "--live");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("go with --stat or --objects");
    }

    private static long total(String stat) {
        String last = stat.lines().filter(l -> l.startsWith("Total ")).findFirst().orElseThrow();
        return Long.parseLong(last.split(" ")[1].replace(",", ""));
    }
}
