package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.cli.ClrheapCommand.Outcome;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** {@code walk --strings} on the real .NET 8 dump: each string with its text, and the strings grouped by value (text and JSON). */
class WalkStringsTest {

    private static final String CORE = "../golden/real/net8-svr/core.xz";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void objectsWithStringsGiveEachStringsTextOfTheLengthItsSizeSays() {
        Outcome r = run("walk", CORE, "--objects", "--strings", "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String[]> rows = r.out().lines().skip(1).map(l -> l.split("\t", -1)).toList();
        assertThat(r.out()).startsWith("address\tmt\tsize\tgeneration\theap\tkind\ttype\tvalue\n");
        assertThat(rows).hasSizeGreaterThan(500).allMatch(f -> f.length == 8 && f[6].equals("System.String"));
        // a string's size is 22 + 2 x its length (BaseSize 22, 2-byte chars): the text shown must be that long
        long plain = rows.stream().filter(f -> !f[7].contains("\\") && !f[7].endsWith("…")).peek(f ->
                assertThat(2 * f[7].length() + 22).as("%s at %s", f[7], f[0]).isEqualTo(Integer.parseInt(f[2]))).count();
        assertThat(plain).isGreaterThan(500);
        assertThat(rows).anyMatch(f -> f[7].equals("PINVOKE_OVERRIDE"));
    }

    @Test
    void objectsWithStringsAsJsonHoldTheWholeText() throws Exception {
        Outcome r = run("walk", CORE, "--objects", "--strings", "--json", "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode list = JSON.readTree(r.out());
        assertThat(list.size()).isGreaterThan(500);
        for (JsonNode o : list) {
            assertThat(2 * o.path("value").asText().length() + 22).as(o.toString()).isEqualTo(o.path("size").asInt());
        }
    }

    @Test
    void statWithStringsAsJsonGroupsTheStringsByValueAsTheTextReportDoes() throws Exception {
        Outcome text = run("walk", CORE, "--stat", "--strings", "-q");
        Outcome json = run("walk", CORE, "--stat", "--strings", "--json", "-q");
        Outcome objects = run("walk", CORE, "--objects", "--strings", "--json", "-q");
        assertThat(List.of(text, json, objects)).allMatch(o -> o.exitCode() == 0);
        JsonNode stat = JSON.readTree(json.out());
        assertThat(stat.has("rows")).isTrue();
        assertThat(stat.path("rows").get(0).has("type")).as("not the type statistics").isFalse();
        // the groups, recomputed from the per-object list
        Map<String, long[]> byValue = new TreeMap<>();
        for (JsonNode o : JSON.readTree(objects.out())) {
            long[] s = byValue.computeIfAbsent(o.path("value").asText(), v -> new long[2]);
            s[0]++;
            s[1] += o.path("size").asLong();
        }
        assertThat(stat.path("distinctValues").asInt()).isEqualTo(byValue.size()).isEqualTo(stat.path("rows").size());
        for (JsonNode row : stat.path("rows")) {
            assertThat(byValue.get(row.path("value").asText())).as(row.toString())
                    .containsExactly(row.path("count").asLong(), row.path("totalSize").asLong());
        }
        assertThat(text.out()).contains(String.format("Total %,d strings, %,d bytes, %,d distinct values%n", stat.path("strings").asLong(),
                stat.path("bytes").asLong(), byValue.size()));
    }

    @Test
    void aShownValueEscapesControlCharactersAndSaysWhereItIsCut() {
        assertThat(StringStatReport.shown("a\tb\nc\u0001")).isEqualTo("a\\tb\\nc\\u0001");
        assertThat(StringStatReport.shown("x".repeat(StringStatReport.SHOWN))).isEqualTo("x".repeat(StringStatReport.SHOWN));
        assertThat(StringStatReport.shown("x".repeat(StringStatReport.SHOWN + 1))).isEqualTo("x".repeat(StringStatReport.SHOWN) + "…");
    }
}
