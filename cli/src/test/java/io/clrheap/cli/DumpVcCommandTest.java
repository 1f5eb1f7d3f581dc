package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.cli.ClrheapCommand.Outcome;
import org.junit.jupiter.api.Test;

/** dumpvc on the real .NET 8 dump: a Dictionary Entry stored in its _entries array, read with its struct's fields. */
class DumpVcCommandTest {

    private static final String CORE = "../golden/real/net8-svr/core.xz";
    /** Entry<String,Object>'s MethodTable (dumparray's Element Methodtable) and _entries[1]'s address. */
    private static final String ENTRY_MT = "0x55b1d0df7c20";
    private static final String ENTRY = "0x7f929cc00290";

    @Test
    void aStructIsReadWithOffsetsFromItsStart() {
        Outcome r = run("dumpvc", CORE, ENTRY_MT, ENTRY);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("MethodTable: 000055b1d0df7c20\n", "Fields:\n")
                .containsPattern("\n +40020e8 +10 +System.UInt32  0 instance +2125249875 hashCode\n")
                .containsPattern("\n +40020ea +0 +System.String  0 instance 00007f929cc01148 key\n");
    }

    @Test
    void aClassesMethodTableIsNoStruct() {
        Outcome r = run("dumpvc", CORE, "0x55b1d0df3598", ENTRY);
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("0x55b1d0df3598 is no struct's MethodTable");
    }

    @Test
    void bothTheMethodTableAndTheAddressAreNeeded() {
        Outcome r = run("dumpvc", CORE, ENTRY_MT);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("give the struct's MethodTable (MT) and its address (ADDR)");
    }

    @Test
    void jsonHoldsTheFieldsTheTextShows() throws Exception {
        Outcome text = run("dumpvc", CORE, ENTRY_MT, ENTRY);
        Outcome json = run("dumpvc", "--json", CORE, ENTRY_MT, ENTRY);
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode fields = new ObjectMapper().readTree(json.out()).path("fields");
        assertThat(fields.size()).isEqualTo(4);
        for (JsonNode f : fields) {
            assertThat(text.out()).containsPattern(String.format(" %x +\\S+ +0 +instance +%s %s%n", f.path("offset").asInt(),
                    java.util.regex.Pattern.quote(f.path("value").asText()), f.path("name").asText()));
        }
    }
}
