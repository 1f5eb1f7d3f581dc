package io.clrheap.walker.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.source.TypeNameTable.MalformedLineException;
import io.clrheap.walker.source.TypeNameTable.Problem;
import io.clrheap.walker.source.TypeNameTable.Syntax;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TypeNameTable}: parsing name lines from bytes into compact storage, and refusing bad lines by number and offset. */
class TypeNameTableTest {

    private static MemorySegment text(String s) {
        return MemorySegment.ofArray(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsTheSidecarTheGeneratorWritesBackToTheSameMap() {
        Map<Long, String> names = new TreeMap<>(Long::compareUnsigned);
        names.put(0xffff_0000_0000_1000L, "High.Type");
        names.put(0x10L, "System.String");
        names.put(0x7f00_0000_2000L, "Dictionary`2[[System.String],[Ünïcödé.Typ€]]");
        TypeNameTable table = TypeNameSidecar.parse(TypeNameSidecar.format(names), "test");
        assertThat(table).isEqualTo(names);
        assertThat(table.keySet()).containsExactly(0x10L, 0x7f00_0000_2000L, 0xffff_0000_0000_1000L);
        assertThat(table.name(0x7f00_0000_2000L)).isEqualTo("Dictionary`2[[System.String],[Ünïcödé.Typ€]]");
        assertThat(table.name(0x11)).isNull();
        assertThat(TypeNameTable.copyOf(names)).isEqualTo(names).containsExactlyEntriesOf(table);
    }

    @Test
    void aListOfObjectsKeepsOneNamePerMethodTableInWhateverOrderItComes() {
        String list = """
                # address size mt type
                0x1000 24 0x30 C
                0x1018 24 0x10 A
                0x1030 8184 0x20 B[]
                0x1048 24 0x10 A
                0x1060 24 0x30 C
                0x20 B again (the first name stays)
                0x40    D   with  spaces
                """;
        TypeNameTable table = TypeNameTable.parse(text(list), Syntax.NAMES_FILE);
        assertThat(table).containsExactly(Map.entry(0x10L, "A"), Map.entry(0x20L, "B[]"), Map.entry(0x30L, "C"),
                Map.entry(0x40L, "D   with  spaces"));
    }

    @Test
    void manyMethodTablesOutOfOrderAreSortedAndDeduplicated() {
        StringBuilder s = new StringBuilder();
        for (int round = 0; round < 3; round++) {
            for (int i = 5000; i > 0; i--) {
                s.append(String.format("0x%x %d 0x%x T%d\n", 0x1000L * i, 24, 0x7f00_0000_0000L + 8L * ((i * 7919L) % 5000), (i * 7919L) % 5000));
            }
        }
        TypeNameTable table = TypeNameTable.parse(text(s.toString()), Syntax.NAMES_FILE);
        assertThat(table).hasSize(5000);
        for (long k = 0; k < 5000; k++) {
            assertThat(table.name(0x7f00_0000_0000L + 8 * k)).isEqualTo("T" + k);
        }
        assertThat(List.copyOf(table.keySet())).isSorted();
    }

    @Test
    void aBadLineIsRefusedNamingItsNumberAndOffset() {
        assertThatThrownBy(() -> TypeNameTable.parse(text("0x10 A\n\nnot a line\n"), Syntax.SIDECAR))
                .isInstanceOfSatisfying(MalformedLineException.class, e -> {
                    assertThat(e.line()).isEqualTo(3);
                    assertThat(e.offset()).isEqualTo(8);
                    assertThat(e.problem()).isEqualTo(Problem.MALFORMED);
                })
                .hasMessage("line 3: expected '0x<MethodTable> <type name>', found 'not a line'");
        assertThatThrownBy(() -> TypeNameTable.parse(text("0x10\n"), Syntax.SIDECAR)).hasMessageContaining("line 1: expected");
        assertThatThrownBy(() -> TypeNameTable.parse(text("0x12345678901234567 A\n"), Syntax.SIDECAR)).hasMessageContaining("line 1: expected");
        assertThatThrownBy(() -> TypeNameSidecar.parse("0x10 A\n0xg B\n".getBytes(StandardCharsets.UTF_8), "the note at 0x40"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the note at 0x40, line 2: expected '0x<MethodTable> <type name>', found '0xg B'");
    }

    @Test
    void aLineLongerThanTheCapIsRefusedWithoutReadingOn() {
        String longName = "N".repeat(TypeNameTable.MAX_LINE_BYTES);
        assertThatThrownBy(() -> TypeNameTable.parse(text("0x10 A\n0x20 " + longName + "\n"), Syntax.SIDECAR))
                .isInstanceOfSatisfying(MalformedLineException.class, e -> {
                    assertThat(e.problem()).isEqualTo(Problem.TOO_LONG);
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.found()).hasSize(81).endsWith("…");
                });
        String fits = "N".repeat(TypeNameTable.MAX_LINE_BYTES - 5);
        assertThat(TypeNameTable.parse(text("0x20 " + fits + "\n"), Syntax.SIDECAR).name(0x20)).isEqualTo(fits);
    }

    @Test
    void strictLinesEndInALineFeedAreUtf8AndNameAMethodTableOnce() {
        assertThat(TypeNameTable.parse(text("0x10 A \n0x20 B\n"), Syntax.STRICT)).containsExactly(Map.entry(0x10L, "A "), Map.entry(0x20L, "B"));
        assertThatThrownBy(() -> TypeNameTable.parse(text("0x10 A\n0x20 B"), Syntax.STRICT))
                .isInstanceOfSatisfying(MalformedLineException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NO_LINE_FEED));
        assertThatThrownBy(() -> TypeNameTable.parse(text("0x10 A\n0x10 B\n"), Syntax.STRICT))
                .isInstanceOfSatisfying(MalformedLineException.class, e -> assertThat(e.offset()).isEqualTo(7)).hasMessage("line 2: MethodTable 0x10 is named twice");
        byte[] bad = "0x10 A\n0x20 Bx\n".getBytes(StandardCharsets.UTF_8);
        bad[13] = (byte) 0xc0;
        assertThatThrownBy(() -> TypeNameTable.parse(MemorySegment.ofArray(bad), Syntax.SIDECAR))
                .isInstanceOfSatisfying(MalformedLineException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NOT_UTF8));
    }

    @Test
    void typeNamesLoadsAFileThroughTheTableAndNamesTheFileAndLine(@TempDir Path tmp) throws IOException {
        Path good = Files.writeString(tmp.resolve("live-objects.txt"), "# address size mt type\n0x1000 24 0x10 A\n0x1018 24 0x10 A\n0x20 B\n");
        TypeNames names = TypeNames.load(good);
        assertThat(names.size()).isEqualTo(2);
        assertThat(names.name(0x10)).hasValue("A");
        assertThat(names.display(0x30, 0x99)).isEqualTo("Unknown (MethodTable: 0x30)");
        assertThat(names.display(0x99, 0x99)).isEqualTo("Free");
        assertThat(TypeNames.load(Files.writeString(tmp.resolve("empty.txt"), "")).isEmpty()).isTrue();
        Path bad = Files.writeString(tmp.resolve("bad.txt"), "0x10 A\nnonsense here\n");
        assertThatThrownBy(() -> TypeNames.load(bad)).isInstanceOf(IOException.class)
                .hasMessage(bad + ":2: expected 'mt type' or 'address size mt type', found: nonsense here");
        assertThat(TypeNames.of(Map.of(0x10L, "A")).name(0x10)).hasValue("A");
        assertThat(TypeNames.none().isEmpty()).isTrue();
    }
}
