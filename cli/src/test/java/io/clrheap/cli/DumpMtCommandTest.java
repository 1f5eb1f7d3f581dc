package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.cli.ClrheapCommand.Outcome;
import org.junit.jupiter.api.Test;

/** dumpmt on the real .NET 8 dump: SOS's lines, the class's fields with --fields, and what is no MethodTable refused. */
class DumpMtCommandTest {

    private static final String CORE = "../golden/real/net8-svr/core.xz";
    /** Dictionary<String, Object> (live-objects.txt of net8-svr). */
    private static final String DICTIONARY_MT = "0x55b1d0df3598";

    @Test
    void aMethodTableIsShownAsSosShowsIt() {
        Outcome r = run("dumpmt", CORE, DICTIONARY_MT);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("EEClass:         000055b1d0d46f68\n").contains(
                "Name:            System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreLib],[System.Object, System.Private.CoreLib]]\n",
                "BaseSize:        0x50\n", "ComponentSize:   0x0\n", "ContainsPointers: true\n", "Parent:          000055b1d0ca5ad0 System.Object\n")
                .doesNotContain("Fields:");
    }

    @Test
    void withFieldsItListsTheClasssFieldsWithTheirOffsets() {
        Outcome r = run("dumpmt", "--fields", CORE, DICTIONARY_MT);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("NumInstanceFields: 10 (inherited ones included)\n", "NumStaticFields: 0 (0 thread-static)\n")
                .containsPattern("\n +40020de +8 +System.Int32\\[\\]  0 instance +_buckets\n")
                .containsPattern("\n +40020e1 +38 +System.Int32  0 instance +_count\n");
    }

    /** The help's Windows example: 10.0.9's EEClass counts are 16 bytes further on than Linux's. */
    @Test
    void aWindowsDictionarysFieldsAreReadWithTheWindowsLayout() {
        Outcome r = run("dumpmt", "--fields", "../golden/real/net10-windows-wks/dump.dmp.xz", "0xe0997740");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("BaseSize:        0x50\n", "NumInstanceFields: 10 (inherited ones included)\n")
                .containsPattern("\n +[0-9a-f]+ +8 +System.Int32\\[\\]  0 instance +_buckets\n");
    }

    @Test
    void anObjectsAddressIsNoMethodTable() {
        Outcome r = run("dumpmt", CORE, "0x7f929d400220");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("clrheap dumpmt: 0x7f929d400220 cannot be read as a MethodTable");
    }

    @Test
    void jsonHoldsTheFieldsAndCountsTheTextShows() throws Exception {
        Outcome text = run("dumpmt", "--fields", CORE, DICTIONARY_MT);
        Outcome json = run("dumpmt", "--fields", "--json", CORE, DICTIONARY_MT);
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertThat(text.out()).contains(String.format("BaseSize:        0x%x%n", root.path("baseSize").asInt()),
                String.format("NumInstanceFields: %d ", root.path("numInstanceFields").asInt()));
        assertThat(root.path("fields").size()).isEqualTo((int) text.out().lines().filter(l -> l.matches(".* (instance|static|TLstatic) .*")).count());
        for (JsonNode f : root.path("fields")) {
            assertThat(text.out()).contains(" " + f.path("name").asText() + "\n");
        }
    }
}
