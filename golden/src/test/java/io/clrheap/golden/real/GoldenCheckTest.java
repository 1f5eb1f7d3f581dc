package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.conformance.corpus.RealGoldenCheck;
import io.clrheap.cli.ClrheapCommand.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** {@code clrheap golden check} on the committed real dumps (which pass) and on a tampered copy (which fails, naming the object). */
class GoldenCheckTest {

    /** Every committed real folder clrheap walks without --module, the Windows minidumps too. */
    static final List<String> WALKABLE = java.util.stream.Stream.concat(RealDump.WALKABLE.stream(),
            java.util.stream.Stream.of("net8-windows-svr", "net10-windows-wks")).toList();

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void everyCommittedRealFolderPasses(String name) {
        Outcome o = ClrheapCommand.run("golden", "check", RealDump.root().resolve(name).toString());
        assertThat(o.exitCode()).as("%s%s", o.out(), o.err()).isZero();
        assertThat(o.out()).contains("the walk agrees with live-objects.txt", "every one live by the walker's roots");
    }

    @Test
    void aFolderWithoutTheModulesHeadersIsUnreadableWithoutModule() {
        Outcome o = ClrheapCommand.run("golden", "check", RealDump.root().resolve("net8-nomodule").toString());
        assertThat(o.exitCode()).as("%s%s", o.out(), o.err()).isEqualTo(3);
    }

    /**
     * A copy of net8-svr whose list was tampered with: the core linked, not copied; its bytes are the real folder's, so
     * the cache entry of those bytes serves both.
     */
    private static Path tamperedCopy(Path tmp, java.util.function.UnaryOperator<List<String>> tamper) throws IOException {
        Path real = RealDump.root().resolve("net8-svr").toAbsolutePath();
        RealDump.of("net8-svr"); // decompresses the core once, into the cache folder
        Files.createSymbolicLink(tmp.resolve("core.xz"), real.resolve("core.xz"));
        List<String> list = tamper.apply(new ArrayList<>(Files.readAllLines(real.resolve("live-objects.txt"))));
        Files.write(tmp.resolve("live-objects.txt"), list);
        // the folder states the tampered list's count, as a capture of it would
        Files.writeString(tmp.resolve("info.txt"), "live objects (EventPipe heap walk): " + list.stream().filter(l -> !l.startsWith("#")).count() + "\n");
        return tmp;
    }

    @Test
    void aListedObjectWithAnotherSizeFailsNamingIt(@TempDir Path tmp) throws IOException {
        List<String> original = Files.readAllLines(RealDump.root().resolve("net8-svr/live-objects.txt"));
        String[] t = original.get(100).split(" ", 4);
        Path dir = tamperedCopy(tmp, lines -> {
            lines.set(100, t[0] + " " + (Long.parseLong(t[1]) + 8) + " " + t[2] + " " + t[3]);
            return lines;
        });
        Outcome o = ClrheapCommand.run("golden", "check", dir.toString());
        assertThat(o.exitCode()).as("%s%s", o.out(), o.err()).isEqualTo(1);
        assertThat(o.out()).contains("misread  " + t[0] + " " + t[3]).contains("1 misread");
    }

    @Test
    void aListedObjectTheWalkDoesNotFindIsMissing(@TempDir Path tmp) throws IOException {
        Path dir = tamperedCopy(tmp, lines -> {
            lines.add("0x10 24 0x55b1d0cabf68 Invented");
            return lines;
        });
        Outcome o = ClrheapCommand.run("golden", "check", dir.toString());
        assertThat(o.exitCode()).isEqualTo(1);
        assertThat(o.out()).contains("missing  0x10 Invented (mt 0x55b1d0cabf68, size 24): not found by the walk").contains("1 missing");
    }

    @Test
    void aDroppedLineMakesAnExtraObjectWithARealMethodTableAndStillPasses(@TempDir Path tmp) throws IOException {
        Path dir = tamperedCopy(tmp, lines -> {
            lines.remove(200);
            return lines;
        });
        Outcome o = ClrheapCommand.run("golden", "check", dir.toString());
        assertThat(o.exitCode()).as("dead objects are not in the list either").isZero();
        assertThat(o.out()).contains("extra objects (not in the list; dead or free):");
    }

    /** Issue 28: the runtime's roots are the referee of the walker's: a root the walker does not find fails the check. */
    @Test
    void aRuntimeRootTheWalkerDoesNotFindFailsNamingIt(@TempDir Path tmp) throws IOException {
        Path dir = tamperedCopy(tmp, lines -> lines);
        List<String> roots = new ArrayList<>(Files.readAllLines(RealDump.root().resolve("net8-svr/roots.txt")));
        roots.add("ROOT Handle 0x0 0x7fd2afa31000 0x7f929d40be68"); // no handle at 0x7fd2afa31000
        roots.add("ROOT Stack 0x0 0x55b1d0ea0680 0x7f929d40ecc8");  // a GARBAGE object of selfreport.txt no stack word holds
        Files.write(dir.resolve("roots.txt"), roots);
        Outcome o = ClrheapCommand.run("golden", "check", dir.toString());
        assertThat(o.exitCode()).as(o.out()).isEqualTo(1);
        assertThat(o.out()).contains("no root  handle 0x7fd2afa31000 holding 0x7f929d40be68: no such handle found",
                "no root  stack root 0x7f929d40ecc8: held by no stack slot, register or thread-static array the walker scanned",
                "roots.txt: 48 handle roots (1 not found), 48 stack-root objects (1 held by no thread root of the walker)",
                "2 runtime roots not found");
    }

    /** A dead object of the dump (selfreport.txt's GARBAGE) listed live, in a folder marked busy or not. */
    private static Outcome checkWithDeadObjectListed(Path tmp, String line, boolean busy) throws IOException {
        Path dir = tamperedCopy(tmp, lines -> {
            lines.add(line);
            return lines;
        });
        if (busy) {
            Files.write(dir.resolve("changed-objects.txt"), List.of("# address size mt type: what the dump holds there"));
        }
        return ClrheapCommand.run("golden", "check", dir.toString());
    }

    @Test
    void aDeadObjectListedLiveFailsNamingIt(@TempDir Path tmp) throws IOException {
        Outcome o = checkWithDeadObjectListed(tmp, "0x7f929d42ba58 424 0x55b1d0cabf68 System.Object[]", false);
        assertThat(o.exitCode()).as(o.out()).isEqualTo(1);
        assertThat(o.out()).contains("not live 0x7f929d42ba58 System.Object[]: listed live by the runtime, not reachable from the walker's roots",
                "1 not live by the walker's roots");
    }

    /**
     * CI, a busy .NET 10 process: a grown List's array the process allocated after its dump lay where the dump holds a
     * dead one of the same type and size; the snapshot listed it live. In gen0/gen1 of a busy folder that is counted apart.
     */
    @Test
    void aBusyFoldersYoungObjectListedLiveButDeadInTheDumpIsCountedNotHeldTo(@TempDir Path tmp) throws IOException {
        Outcome o = checkWithDeadObjectListed(tmp, "0x7f929d42ba58 424 0x55b1d0cabf68 System.Object[]", true);
        assertThat(o.exitCode()).as(o.out()).isZero();
        assertThat(o.out()).contains("not live in gen0/gen1: 1 listed objects the walker's roots do not keep; not held to")
                .doesNotContain("not live 0x7f929d42ba58");
    }

    @Test
    void aBusyFoldersOldObjectListedLiveButDeadInTheDumpStillFails(@TempDir Path tmp) throws IOException {
        Outcome o = checkWithDeadObjectListed(tmp, "0x7f929f956fc8 90024 0x55b1d0ea45d0 System.Byte[]", true);
        assertThat(o.exitCode()).as(o.out()).isEqualTo(1);
        assertThat(o.out()).contains("not live 0x7f929f956fc8 System.Byte[]: listed live by the runtime, not reachable from the walker's roots");
    }

    @Test
    void theRealFolderSaysEveryListedObjectIsLiveByTheWalkersRoots() {
        Outcome o = ClrheapCommand.run("golden", "check", RealDump.root().resolve("net8-svr").toString());
        assertThat(o.exitCode()).as(o.out()).isZero();
        assertThat(o.out()).contains("roots: 7 of 7 managed threads' stacks scanned; 6,253 objects live by the walker's roots, 97 of them not in the list",
                "roots.txt: 47 handle roots (0 not found), 47 stack-root objects (0 held by no thread root of the walker)",
                "6,156 listed objects found with their MethodTable and size (9,470 walked), every one live by the walker's roots");
    }

    @Test
    void aFolderWithoutItsFilesIsUnreadable(@TempDir Path tmp) {
        Outcome o = ClrheapCommand.run("golden", "check", tmp.toString());
        assertThat(o.exitCode()).isEqualTo(3);
        assertThat(o.err()).contains("holds no core.xz");
    }

    // A damaged list is refused before the walk (exit 3), naming the file and line: the referee must be whole.

    private static final Path NET8_SVR = RealDump.root().resolve("net8-svr").toAbsolutePath();

    /** A copy of net8-svr with {@code list} as its live-objects.txt and the named files of the folder copied beside it. */
    private static Path damagedCopy(Path tmp, byte[] list, String... alsoCopy) throws IOException {
        Files.createSymbolicLink(tmp.resolve("core.xz"), NET8_SVR.resolve("core.xz"));
        Files.write(tmp.resolve("live-objects.txt"), list);
        for (String name : alsoCopy) {
            Files.copy(NET8_SVR.resolve(name), tmp.resolve(name));
        }
        return tmp;
    }

    private static byte[] lines(List<String> lines) {
        return (String.join("\n", lines) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static Outcome refused(Path dir, String... messages) {
        Outcome o = ClrheapCommand.run("golden", "check", dir.toString());
        assertThat(o.exitCode()).as("%s%s", o.out(), o.err()).isEqualTo(3);
        assertThat(o.out()).doesNotContain("agrees");
        assertThat(o.err()).contains(messages);
        return o;
    }

    @Test
    void anEmptyListIsRefused(@TempDir Path tmp) throws IOException {
        refused(damagedCopy(tmp, new byte[0]), "live-objects.txt line 1: lists no object");
    }

    @Test
    void aListOfCommentsOnlyIsRefused(@TempDir Path tmp) throws IOException {
        refused(damagedCopy(tmp, lines(List.of("# address size mt type", ""))), "live-objects.txt line 1: lists no object");
    }

    @Test
    void aListWhoseLastLineHasNoLineFeedIsRefusedAsTruncated(@TempDir Path tmp) throws IOException {
        byte[] whole = Files.readAllBytes(NET8_SVR.resolve("live-objects.txt"));
        int lines = Files.readAllLines(NET8_SVR.resolve("live-objects.txt")).size();
        refused(damagedCopy(tmp, java.util.Arrays.copyOf(whole, whole.length - 1)),
                "live-objects.txt line " + lines + ": the last line has no line feed: the list is truncated");
    }

    @Test
    void aLineCutShortIsRefusedNamingIt(@TempDir Path tmp) throws IOException {
        List<String> original = Files.readAllLines(NET8_SVR.resolve("live-objects.txt"));
        List<String> cut = new ArrayList<>(original.subList(0, 3000));
        cut.add(original.get(3000).substring(0, 18));
        refused(damagedCopy(tmp, lines(cut)), "live-objects.txt line 3001: not 'address size mt type': " + original.get(3000).substring(0, 18));
    }

    @Test
    void aMalformedLineIsRefusedNamingIt(@TempDir Path tmp) throws IOException {
        List<String> original = new ArrayList<>(Files.readAllLines(NET8_SVR.resolve("live-objects.txt")));
        original.set(41, original.get(41).replaceFirst(" [0-9]+ ", " twenty-four "));
        refused(damagedCopy(tmp, lines(original)), "live-objects.txt line 42: not 'address size mt type'");
    }

    @Test
    void aListShorterThanInfoTxtsCountIsRefused(@TempDir Path tmp) throws IOException {
        List<String> original = Files.readAllLines(NET8_SVR.resolve("live-objects.txt"));
        List<String> info = Files.readAllLines(NET8_SVR.resolve("info.txt"));
        int countLine = 1 + info.indexOf(info.stream().filter(l -> l.startsWith("live objects (EventPipe heap walk): ")).findFirst().orElseThrow());
        refused(damagedCopy(tmp, lines(original.subList(0, 3001)), "info.txt"),
                "live-objects.txt lists 3,000 objects, but ", "info.txt line " + countLine + " records 6,156");
    }

    @Test
    void aListMissingAnObjectTheProgramReportedIsRefused(@TempDir Path tmp) throws IOException {
        List<String> report = Files.readAllLines(NET8_SVR.resolve("selfreport.txt"));
        String firstObj = report.stream().filter(l -> l.startsWith("OBJ ")).findFirst().orElseThrow();
        String address = firstObj.replaceFirst(".*\\baddr=(0x[0-9a-fA-F]+).*", "$1");
        List<String> original = new ArrayList<>(Files.readAllLines(NET8_SVR.resolve("live-objects.txt")));
        original.removeIf(l -> l.startsWith(address + " "));
        refused(damagedCopy(tmp, lines(original), "selfreport.txt"),
                "selfreport.txt line " + (report.indexOf(firstObj) + 1) + ": the program's own object " + address + " is not in ");
    }

    /** Issue 30: a list cut cleanly to its first 100 objects passed when the folder said nothing of the runtime's count. */
    @Test
    void aFolderThatStatesNoCountIsRefused(@TempDir Path tmp) throws IOException {
        List<String> original = Files.readAllLines(NET8_SVR.resolve("live-objects.txt"));
        refused(damagedCopy(tmp, lines(original.subList(0, 101))), "has no info.txt: nothing in the folder says how many objects the runtime listed",
                "live-objects.txt lists 100");
    }

    @Test
    void anInfoTxtWithoutTheCountIsRefused(@TempDir Path tmp) throws IOException {
        Path dir = damagedCopy(tmp, Files.readAllBytes(NET8_SVR.resolve("live-objects.txt")));
        Files.writeString(dir.resolve("info.txt"), "name: net8-svr\n");
        refused(dir, "info.txt states no count of the runtime's live objects", "live-objects.txt lists 6,156");
    }

    @Test
    void everyCommittedFolderStatesItsCount() throws IOException {
        for (String name : WALKABLE) {
            List<RealGoldenCheck.LiveObject> live = RealGoldenCheck.readLiveObjects(RealDump.root().resolve(name).resolve("live-objects.txt"));
            assertThat(Files.readAllLines(RealDump.root().resolve(name).resolve("info.txt"))).as(name)
                    .anyMatch(l -> l.matches("live objects \\(EventPipe heap walk\\): " + live.size() + "\\b.*"));
        }
    }

    @Test
    void anObjectListedTwiceIsRefused(@TempDir Path tmp) throws IOException {
        List<String> original = new ArrayList<>(Files.readAllLines(NET8_SVR.resolve("live-objects.txt")));
        original.add(original.get(7));
        refused(damagedCopy(tmp, lines(original)), "object " + original.get(7).split(" ")[0] + " is listed twice");
    }
}
