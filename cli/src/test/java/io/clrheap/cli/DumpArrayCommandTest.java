package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.cli.ClrheapCommand.Outcome;
import org.junit.jupiter.api.Test;

/** dumparray on the real .NET 8 dump: SOS's lines, elements of primitives, structs and two dimensions. */
class DumpArrayCommandTest {

    private static final String CORE = "../golden/real/net8-svr/core.xz";
    /** A Dictionary<String,Object>'s _buckets (Int32[17]) and _entries (Entry[17]), from its dumpobj. */
    private static final String BUCKETS = "0x7f929cc00208";
    private static final String ENTRIES = "0x7f929cc00268";

    @Test
    void anInt32ArrayShowsItsElementsInDecimal() {
        Outcome r = run("dumparray", CORE, BUCKETS);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Name:        System.Int32[]\n").contains("Array:       Rank 1, Number of elements 17, Type Int32\n",
                "[7] 10\n", "[16] 3\n").doesNotContain("[17]");
    }

    @Test
    void structElementsWithDetailsShowTheirFieldsAndTheKeysAreStrings() {
        Outcome r = run("dumparray", "--start", "1", "--length", "1", "--details", CORE, ENTRIES);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Array:       Rank 1, Number of elements 17, Type VALUETYPE\n", "[1] 00007f929cc00290\n")
                .containsPattern("\n +0 +System.String 00007f929cc01148 key\n").containsPattern("\n +14 +System.Int32 +-1 next\n")
                .doesNotContain("[0]", "[2]");
        Outcome key = run("dumpobj", CORE, "0x7f929cc01148");
        assertThat(key.out()).contains("Name:        System.String\n");
    }

    @Test
    void aTwoDimensionalArrayLabelsItsElementsByRowAndColumn() {
        Outcome r = run("dumparray", CORE, "0x7f929cc1e1d8");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Array:       Rank 2, Number of elements 6, Type Int32\n", "[0,0] ", "[1,2] ").doesNotContain("[2,0]");
    }

    @Test
    void anObjectThatIsNoArrayIsRefused() {
        Outcome r = run("dumparray", CORE, "0x7f929d400220");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("0x7f929d400220 is no array");
    }

    @Test
    void jsonHoldsTheElementsTheTextShows() throws Exception {
        Outcome text = run("dumparray", "--start", "3", "--length", "5", CORE, BUCKETS);
        Outcome json = run("dumparray", "--start", "3", "--length", "5", "--json", CORE, BUCKETS);
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertThat(root.path("length").asInt()).isEqualTo(17);
        assertThat(root.path("elementType").asText()).isEqualTo("Int32");
        java.util.List<String> rows = text.out().lines().filter(l -> l.startsWith("[")).toList();
        assertThat(rows).hasSize(5);
        for (int i = 0; i < rows.size(); i++) {
            JsonNode e = root.path("elements").get(i);
            assertThat(e.path("index").asText() + " " + e.path("value").asText()).isEqualTo(rows.get(i));
        }
        assertThat(root.path("notShown").asInt()).isZero();
    }
}
