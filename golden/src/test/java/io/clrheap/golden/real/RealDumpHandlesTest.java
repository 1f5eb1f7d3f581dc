package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.walker.report.HandleInfo;
import io.clrheap.walker.report.HandleTableWalker;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The handle tables of the real dumps against the runtime's handle roots and the program's own handles. */
class RealDumpHandlesTest {

    static final List<String> V2 = RealDump.V2;

    private static Map<Long, HandleInfo> handles(RealDump d) {
        HandleTableWalker walker = new HandleTableWalker(d.target, d.heap.heaps().size());
        Map<Long, HandleInfo> byAddress = walker.handles().stream().collect(Collectors.toMap(HandleInfo::handle, Function.identity()));
        assertThat(walker.problems()).isEmpty();
        return byAddress;
    }

    @ParameterizedTest
    @FieldSource("V2")
    void everyHandleRootOfTheRuntimeIsListedWithItsTarget(String name) {
        RealDump d = RealDump.of(name);
        Map<Long, HandleInfo> handles = handles(d);
        int roots = assertHandleRootsListed(d.lines("roots.txt"), handles);
        assertThat(roots).isGreaterThan(30);
    }

    /**
     * Asserts every {@code ROOT Handle flags handle object} line of a roots.txt (GCBulkRootEdge: flags 1 pinning, 2
     * weak) is a handle of {@code handles} with that target, pinned or weak as flagged; returns how many there were.
     */
    static int assertHandleRootsListed(List<String> rootLines, Map<Long, HandleInfo> handles) {
        int roots = 0;
        for (String line : rootLines) {
            String[] t = line.split(" ");
            if (!t[0].equals("ROOT") || !t[1].equals("Handle")) {
                continue;
            }
            HandleInfo h = handles.get(RealDump.hex(t[3]));
            assertThat(h).as("handle root %s", line).isNotNull();
            assertThat(h.target()).as(line).isEqualTo(RealDump.hex(t[4]));
            long flags = RealDump.hex(t[2]);
            if ((flags & 1) != 0) {
                assertThat(h.typeName()).as(line).isEqualTo("pinned");
            }
            if ((flags & 2) != 0) {
                assertThat(h.typeName()).as(line).isIn("weak_short", "weak_long");
            }
            roots++;
        }
        return roots;
    }

    private static final Pattern HANDLE = Pattern.compile("^HANDLE kind=(\\S+) value=\\S+ slot=(0x[0-9a-f]+) target=(0x[0-9a-f]+)");
    private static final Pattern DEPENDENT = Pattern.compile("^DEPENDENT handle=(0x[0-9a-f]+) key=(0x[0-9a-f]+) value=(0x[0-9a-f]+)");

    @ParameterizedTest
    @FieldSource("V2")
    void theProgramsOwnHandlesHaveTheirKinds(String name) {
        RealDump d = RealDump.of(name);
        Map<Long, HandleInfo> handles = handles(d);
        Map<String, String> kinds = Map.of("Normal", "strong", "Normal(literal)", "strong", "Weak", "weak_short",
                "Weak(dead-target)", "weak_short", "WeakTrackResurrection", "weak_long", "Pinned", "pinned");
        int seen = 0;
        for (String line : d.lines("handles.txt")) {
            Matcher m = HANDLE.matcher(line);
            if (m.find()) {
                HandleInfo h = handles.get(RealDump.hex(m.group(2)));
                assertThat(h).as(line).isNotNull();
                assertThat(h.typeName()).as(line).isEqualTo(kinds.get(m.group(1)));
                assertThat(h.target()).as(line).isEqualTo(RealDump.hex(m.group(3)));
                seen++;
            }
            Matcher dep = DEPENDENT.matcher(line);
            if (dep.find()) {
                HandleInfo h = handles.get(RealDump.hex(dep.group(1)));
                assertThat(h).as(line).isNotNull();
                assertThat(h.typeName()).isEqualTo("dependent");
                assertThat(h.target()).isEqualTo(RealDump.hex(dep.group(2)));
                assertThat(h.secondary()).isEqualTo(RealDump.hex(dep.group(3)));
                seen++;
            }
        }
        assertThat(seen).isEqualTo(7);
    }
}
