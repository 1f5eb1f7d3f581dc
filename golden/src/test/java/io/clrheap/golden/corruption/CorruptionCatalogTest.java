package io.clrheap.golden.corruption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.cli.ClrheapCommand;
import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.golden.corruption.Fixture.KeyObject;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of the corruption catalog, applied to golden fixtures (server and workstation GC, .NET 8 and 10): the
 * real command line, {@code walk DUMP --verify --json}, reports the kind at the address, and {@code walk --objects}
 * finds every answer-key object outside the damaged span with its MethodTable and size, inventing none outside it —
 * within 10 seconds. The nastiest kinds also run in a child JVM limited to 256 MiB of heap.
 */
class CorruptionCatalogTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    static Path work;

    private static List<Fixture> fixtures;

    @BeforeAll
    static void writeFixtures() {
        fixtures = List.of(
                Fixture.write("default", RuntimeVersion.NET8, GcFlavor.SERVER, work),
                Fixture.write("every-edge", RuntimeVersion.NET10, GcFlavor.WORKSTATION, work));
    }

    @AfterAll
    static void closeFixtures() {
        fixtures.forEach(Fixture::close);
    }

    @TestFactory
    Stream<DynamicTest> eachCorruptionIsReportedWhereItIsAndTheRestOfTheHeapIsRecovered() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Fixture f : fixtures) {
            for (Corruption c : Corruption.values()) {
                tests.add(DynamicTest.dynamicTest(c.name() + " on " + f.label, () -> check(c, f)));
            }
        }
        return tests.stream();
    }

    private static void check(Corruption c, Fixture f) throws IOException {
        Path out = f.dir.resolve(c.name().toLowerCase() + (c.name().startsWith("BUNDLE") ? ".clrheap.tar.xz" : ".core"));
        var damage = c.apply(f, out);
        if (damage.isEmpty()) {
            return; // the kind does not apply to this fixture (e.g. n_heaps under workstation GC)
        }
        Damage d = damage.get();
        Outcome verify = assertTimeoutPreemptively(TIMEOUT, () -> ClrheapCommand.run("walk", d.file().toString(), "--verify", "--json", "-q"));
        if (d.isRefusal()) {
            assertThat(verify.exitCode()).as("%s: exit code; stderr %s", c, verify.err()).isEqualTo(3);
            assertThat(verify.err()).as("%s: the refusal", c).contains(d.refusal());
            return;
        }
        assertThat(verify.exitCode()).as("%s: exit code; stderr %s", c, verify.err()).isEqualTo(1);
        JsonNode problems = new ObjectMapper().readTree(verify.out()).get("list");
        assertThat(problems).as("%s: the problems reported", c)
                .anyMatch(p -> p.get("kind").asText().equals(d.kind().name()) && p.get("address").asText().equals("0x" + Long.toHexString(d.address())));

        Outcome objects = assertTimeoutPreemptively(TIMEOUT, () -> ClrheapCommand.run("walk", d.file().toString(), "--objects", "-q"));
        assertThat(objects.exitCode()).as("%s: walk --objects; stderr %s", c, objects.err()).isZero();
        Map<Long, String> found = new HashMap<>();
        objects.out().lines().skip(1).forEach(line -> {
            String[] cols = line.split("\t");
            found.put(Long.decode(cols[0]), cols[1] + " " + cols[2]);
        });
        List<String> missing = new ArrayList<>();
        Set<Long> inKey = new java.util.HashSet<>();
        for (KeyObject o : f.objects) {
            inKey.add(o.address());
            String want = "0x" + Long.toHexString(o.mt()) + " " + o.size();
            if (!d.lost().test(o.address()) && !want.equals(found.get(o.address()))) {
                missing.add(String.format("0x%x %s %s (found: %s)", o.address(), o.type(), want, found.get(o.address())));
            }
        }
        assertThat(missing).as("%s: answer-key objects outside the damaged span not found as they are", c).isEmpty();
        assertThat(found.keySet()).as("%s: objects invented outside the damaged span", c)
                .allMatch(a -> inKey.contains(a) || d.lost().test(a));
        if (c == Corruption.HANDLE_TABLE_SEGMENT_CYCLE) {
            assertEveryHandleIsFound(f, d);
        }
    }

    /** The handle tables' cycle is cut without losing a handle: as many as gchandles.txt lists. */
    private static void assertEveryHandleIsFound(Fixture f, Damage d) throws IOException {
        long expected = Files.readAllLines(f.answer.resolve("gchandles.txt")).stream().filter(l -> l.matches("[0-9a-f]{16} .*")).count();
        Outcome handles = assertTimeoutPreemptively(TIMEOUT, () -> ClrheapCommand.run("walk", d.file().toString(), "--handles", "--json", "-q"));
        JsonNode root = new ObjectMapper().readTree(handles.out());
        assertThat(root.get("handles")).hasSize((int) expected);
        assertThat(root.get("problems").toString()).contains("handle table cycle");
    }

    /** The last LOH region of heap 0, whose next SEGMENT_CHAIN_CYCLE points back to the first. */
    private static Region lastLoh(Fixture f) {
        return f.heap.heaps().get(0).regions().stream().filter(r -> r.kind() == SegmentKind.LOH).toList().getLast();
    }

    @Test
    void walkVerifyNamesTheReadThatClosedARegionListCycle() throws IOException {
        Fixture f = fixtures.getFirst();
        Damage d = Corruption.SEGMENT_CHAIN_CYCLE.apply(f, work.resolve("read-segment-chain-cycle.core")).orElseThrow();
        long next = f.offset("heap_segment", "next");
        Outcome verify = ClrheapCommand.run("walk", d.file().toString(), "--verify", "-q");
        assertThat(verify.out()).contains(String.format("region list cycle at 0x%x: ", d.address()),
                String.format("; read heap_segment.next at 0x%x (offset 0x%x: profile, dump: E:all)", lastLoh(f).descriptor() + next, next));
    }

    @Test
    void walkVerifyJsonGivesTheReadThatClosedARegionListCycle() throws IOException {
        Fixture f = fixtures.getFirst();
        Damage d = Corruption.SEGMENT_CHAIN_CYCLE.apply(f, work.resolve("read-segment-chain-cycle-json.core")).orElseThrow();
        long next = f.offset("heap_segment", "next");
        JsonNode list = new ObjectMapper().readTree(ClrheapCommand.run("walk", d.file().toString(), "--verify", "--json", "-q").out()).get("list");
        assertThat(list).filteredOn(p -> p.get("kind").asText().equals("SEGMENT_CYCLE")).singleElement()
                .satisfies(p -> assertThat(p.get("read").asText()).isEqualTo(String.format(
                        "heap_segment.next at 0x%x (offset 0x%x: profile, dump: E:all)", lastLoh(f).descriptor() + next, next)));
    }

    @Test
    void theNastiestKindsStayWithinA256MiBHeapAndTenSeconds() throws Exception {
        Fixture f = fixtures.getFirst();
        for (Corruption c : EnumSet.of(Corruption.BUNDLE_DECOMPRESSION_BOMB, Corruption.FREE_OBJECT_HUGE_LENGTH,
                Corruption.ARRAY_COUNT_OVERFLOW, Corruption.ABSURD_HEAP_COUNT)) {
            Path out = work.resolve("bounded-" + c.name().toLowerCase() + (c.name().startsWith("BUNDLE") ? ".clrheap.tar.xz" : ".core"));
            Damage d = c.apply(f, out).orElseThrow();
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                    "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"), "io.clrheap.cli.ClrheapCommand",
                    "walk", d.file().toString(), "--verify", "-q")
                    .redirectErrorStream(true).start();
            boolean ended = p.waitFor(30, TimeUnit.SECONDS); // the JVM's own start-up on top of the walk's 10 s
            if (!ended) {
                p.destroyForcibly();
            }
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(ended).as("%s ends", c).isTrue();
            assertThat(p.exitValue()).as("%s: exit code; output %s", c, output).isEqualTo(d.isRefusal() ? 3 : 1);
        }
    }

    @Test
    void theReadmeTableIsTheCatalog() throws IOException {
        List<String> readme = Files.readAllLines(Path.of(System.getProperty("user.dir")).resolveSibling("docs/conformance.md"));
        int heading = readme.indexOf("## Corruption catalog");
        assertThat(heading).as("docs/conformance.md has a '## Corruption catalog' section").isNotNegative();
        List<String> table = readme.subList(heading, readme.size()).stream()
                .dropWhile(l -> !l.startsWith("| kind |")).takeWhile(l -> l.startsWith("|")).toList();
        assertThat(table).as("docs/conformance.md's table, generated from Corruption.readmeTable()")
                .containsExactlyElementsOf(Corruption.readmeTable());
    }

    @Test
    void theCatalogNamesAtLeastTheSixteenKindsOfTheIssue() {
        assertThat(Corruption.values()).hasSizeGreaterThanOrEqualTo(16);
    }
}
