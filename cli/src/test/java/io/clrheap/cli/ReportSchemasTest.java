package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every report's {@code --json}, on emulated and real heaps, is valid against its JSON Schema in docs/schemas (docs/reports.md). */
class ReportSchemasTest {

    private static final Path SCHEMAS = Path.of("../docs/schemas");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<Error> validate(String schemaFile, JsonNode document) throws Exception {
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(SCHEMAS.resolve(schemaFile)));
        return schema.validate(document);
    }

    private static JsonNode walk(String dump, String report) throws Exception {
        Outcome r = dump.startsWith("emulate:")
                ? run("walk", "--emulate", dump.substring("emulate:".length()), report, "--json", "-q")
                : run("walk", dump, report, "--json", "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        return JSON.readTree(r.out());
    }

    @ParameterizedTest(name = "{1} of {0}")
    @CsvSource({
        "emulate:every-edge, --stat, stat.schema.json",
        "emulate:every-edge, --objects, objects.schema.json",
        "emulate:every-edge, --eeheap, eeheap.schema.json",
        "emulate:every-edge, --handles, gchandles.schema.json",
        "../golden/real/net10-svr/core.xz, --stat, stat.schema.json",
        "../golden/real/net10-svr/core.xz, --eeheap, eeheap.schema.json",
        "../golden/real/net10-svr/core.xz, --handles, gchandles.schema.json",
        "../golden/real/net8-svr/core.xz, --eeheap, eeheap.schema.json",
        "../golden/real/net8-svr/core.xz, --roots, roots.schema.json",
        "../golden/real/net10-windows-wks/dump.dmp.xz, --roots, roots.schema.json",
        "emulate:every-edge, --roots, roots.schema.json",
    })
    void theReportIsValidAgainstItsSchema(String dump, String report, String schema) throws Exception {
        JsonNode document = walk(dump, report);
        assertThat(validate(schema, document)).as("%s %s", dump, report).isEmpty();
    }

    /** dumpobj --json of a Dictionary and of a string of the real .NET 8 dump. */
    @ParameterizedTest(name = "dumpobj {0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"0x7f929d400220", "0x7f929cc010d8"})
    void dumpobjJsonIsValidAgainstItsSchema(String address) throws Exception {
        Outcome r = run("dumpobj", "../golden/real/net8-svr/core.xz", address, "--json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode document = JSON.readTree(r.out());
        assertThat(validate("dumpobj.schema.json", document)).isEmpty();
        assertThat(document.path("fields").size()).isPositive();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "--objects --strings, objects.schema.json",
        "--stat --strings, strings.schema.json",
    })
    void stringReportsAreValidAgainstTheirSchemas(String report, String schema) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("walk", "../golden/real/net8-svr/core.xz", "--json", "-q"));
        args.addAll(List.of(report.split(" ")));
        Outcome r = run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(validate(schema, JSON.readTree(r.out()))).isEmpty();
    }

    /** dumparray, dumpvc and dumpmt --json on the real .NET 8 dump: a Dictionary's entries, one entry, its MethodTable. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "dumparray --details 0x7f929cc00268, dumparray.schema.json",
        "dumparray 0x7f929cc1e1d8, dumparray.schema.json",
        "dumpvc 0x55b1d0df7c20 0x7f929cc00290, dumpvc.schema.json",
        "dumpmt --fields 0x55b1d0df3598, dumpmt.schema.json",
        "dumpmt 0x55b1d0df3598, dumpmt.schema.json",
    })
    void objectCommandsJsonIsValidAgainstItsSchema(String command, String schema) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of(command.split(" ")));
        args.add(1, "../golden/real/net8-svr/core.xz");
        args.add("--json");
        Outcome r = run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(validate(schema, JSON.readTree(r.out()))).isEmpty();
    }

    @ParameterizedTest(name = "{0} refuses {1}")
    @CsvSource(delimiter = '|', value = {
        "stat.schema.json | {\"rows\": [], \"objects\": 1, \"bytes\": 2, \"problems\": 0, \"problemCount\": 0}",
        "eeheap.schema.json | {\"server\": true, \"heaps\": [{\"index\": 0, \"gcHeap\": \"0x1\", \"segments\": [{\"kind\": \"gen3\"}]}], \"allocatedTotal\": 0, \"committedTotal\": 0, \"problems\": []}",
        "gchandles.schema.json | {\"handles\": [], \"counts\": {\"strong\": 1}, \"total\": 0, \"unusedSlots\": 0, \"problems\": []}",
        "dumpobj.schema.json | {\"runtime\": {}, \"address\": \"0x1\", \"name\": \"T\", \"methodTable\": \"0x2\", \"eeClass\": \"0x3\", \"size\": 24, \"fields\": [{\"name\": \"f\", \"token\": \"0x02000001\", \"type\": \"T\", \"elementType\": \"I4\", \"valueType\": false, \"static\": false}]}",
        "roots.schema.json | {\"runtime\": {}, \"roots\": [{\"kind\": \"stack\", \"root\": \"rsp\", \"object\": \"0x1\", \"flags\": [], \"keepsAlive\": true, \"type\": \"T\"}], \"threads\": [], \"problems\": []}",
        "strings.schema.json | {\"runtime\": {}, \"rows\": [{\"count\": 0, \"totalSize\": 0, \"value\": \"\"}], \"strings\": 0, \"bytes\": 0, \"distinctValues\": 1, \"notListed\": 0, \"unreadable\": 0}",
        "dumpmt.schema.json | {\"runtime\": {}, \"methodTable\": \"0x1\", \"eeClass\": \"0x2\", \"module\": \"0x3\", \"name\": \"T\", \"baseSize\": 24, \"componentSize\": 70000, \"containsPointers\": false, \"slots\": 4, \"interfaces\": 0, \"parent\": \"0x4\"}",
        "dumparray.schema.json | {\"runtime\": {}, \"address\": \"0x1\", \"name\": \"T\", \"methodTable\": \"0x2\", \"eeClass\": \"0x3\", \"size\": 24, \"rank\": 1, \"length\": 1, \"elementType\": \"Int32\", \"elementMethodTable\": \"0x4\", \"start\": 0, \"elements\": [{\"index\": \"0\", \"value\": \"1\"}], \"notShown\": 0}",
        "dumpvc.schema.json | {\"runtime\": {}, \"address\": \"0x1\", \"name\": \"T\", \"methodTable\": \"0x2\", \"eeClass\": \"0x3\", \"boxedSize\": 24}",
        "objects.schema.json | [{\"address\": \"7f00\", \"mt\": \"0x1\", \"size\": 24, \"type\": \"T\", \"generation\": \"gen0\", \"heap\": 0, \"kind\": \"object\"}]",
    })
    void theSchemasRefuseWhatTheReportsNeverPrint(String schema, String document) throws Exception {
        assertThat(validate(schema, JSON.readTree(document))).isNotEmpty();
    }
}
