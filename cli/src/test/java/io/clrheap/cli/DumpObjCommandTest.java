package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import org.junit.jupiter.api.Test;

/** dumpobj on the real .NET 8 dump: SOS's layout, field names from metadata, values read where the fields are. */
class DumpObjCommandTest {

    private static final String CORE = "../golden/real/net8-svr/core.xz";
    /** A Dictionary<String, Object> of net8-svr (live-objects.txt); its _buckets is the Int32[] at 0x7f929cc00208. */
    private static final String DICTIONARY = "0x7f929d400220";

    @Test
    void aDictionarysFieldsComeWithTheirTokensOffsetsTypesValuesAndNames() {
        Outcome r = run("dumpobj", CORE, DICTIONARY);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Name:        System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreLib],"
                + "[System.Object, System.Private.CoreLib]]\nMethodTable: 000055b1d0df3598\nEEClass:     000055b1d0d46f68\n"
                + "Size:        80(0x50) bytes\nFields:\n" + DumpObjCommand.HEADER + "\n");
        assertThat(r.out()).contains("000055b1d0d589e0  40020de        8       System.Int32[]  0 instance 00007f929cc00208 _buckets\n",
                "                  40020e1       38         System.Int32  0 instance               15 _count\n",
                "                  40020e6       20 System.Collections.Generic.Dictionary`2+KeyCollection[[System.String],[System.Object]]  0 instance 0000000000000000 _keys\n");
    }

    @Test
    void aStringShowsItsTextAndItsStaticIsListedWithoutAValue() {
        Outcome r = run("dumpobj", CORE, "0x7f929cc010d8");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Name:        System.String\n", "Size:        54(0x36) bytes\n", "String:      PINVOKE_OVERRIDE\n")
                .containsPattern("\n +[0-9a-f]+ +8 +System.Int32  0 instance +[0-9]+ _stringLength\n")
                .contains("   static                - Empty\n");
    }

    @Test
    void anAddressInsideAnObjectIsRefusedNamingTheObject() {
        Outcome r = run("dumpobj", CORE, "0x7f929d400228");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("0x7f929d400228 is no object start; it lies in the object at 0x7f929d400220 (System.Collections.Generic.Dictionary`2");
    }
}
