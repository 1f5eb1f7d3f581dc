package io.clrheap.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;
import io.clrheap.emulator.truth.GroundTruth;

class ScenarioJsonTest {

    @Test
    void everyBuiltInScenarioReadsBackFromItsJson() {
        for (Scenario s : Scenarios.all()) {
            assertThat(ScenarioJson.read(ScenarioJson.write(s), s.name() + ".json")).isEqualTo(s);
        }
    }

    @Test
    void aJsonScenarioBuildsTheSameHeapAsTheJavaOne() {
        for (String name : new String[] {"every-edge", "collected", "user-types"}) {
            Scenario s = Scenarios.named(name).orElseThrow();
            var fromJava = new RuntimeBuilder().build(s).groundTruth();
            var fromJson = new RuntimeBuilder().build(ScenarioJson.read(ScenarioJson.write(s), name + ".json")).groundTruth();
            assertThat(objects(fromJson)).isEqualTo(objects(fromJava));
        }
    }

    /** The first ```json block of a project document after {@code heading}: the examples users copy must work. */
    private static String firstJsonBlock(String file, String heading) throws java.io.IOException {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of(file));
        int start = doc.indexOf("```json", doc.indexOf(heading)) + "```json".length();
        return doc.substring(start, doc.indexOf("```", start));
    }

    private static java.util.List<String> objects(GroundTruth t) {
        java.util.List<String> list = new java.util.ArrayList<>();
        t.forEachObject((address, mt, size, generation, heap, kind) -> list.add(address + " " + mt + " " + size + " " + generation + " " + kind));
        return list;
    }

    @Test
    void aProgramStepWithAnUnknownKeyIsRefusedWithItsPath() {
        String json = ScenarioJson.write(Scenarios.named("collected").orElseThrow()).replaceFirst("\"dies\"", "\"die\"");
        assertThatThrownBy(() -> ScenarioJson.read(json, "c.json")).hasMessageStartingWith("c.json: unknown key 'program[0].die'");
    }

    @Test
    void aTypeThatCannotExistIsRefusedWithItsPath() {
        String json = ScenarioJson.write(Scenarios.named("user-types").orElseThrow()).replaceFirst("\"baseSize\" : 64", "\"baseSize\" : 20");
        assertThatThrownBy(() -> ScenarioJson.read(json, "u.json")).hasMessageContaining("u.json: types[0]: Shop.Order: BaseSize");
    }

    @Test
    void aStepNamingNoTypeIsRefusedWhenBuilt() {
        Scenario s = Scenario.builder("t").allocate("No.Such", 1, Step.Lengths.fixed(0), Step.Where.GEN2).build();
        assertThatThrownBy(() -> new RuntimeBuilder().build(s)).hasMessageStartingWith("unknown type 'No.Such'");
    }

    @Test
    void theExampleInTheDocsBuildsAndIsWellFormed() throws Exception {
        Scenario shop = ScenarioJson.read(firstJsonBlock("../docs/scenarios.md", ""), "docs/scenarios.md");
        assertThat(shop.program()).hasSize(4);
        EmulatedRuntime process = new RuntimeBuilder().build(shop);
        assertThat(InvariantChecker.check(process)).isEmpty();
        assertThat(process.typeNames()).containsValue("Shop.Order[]");
    }

    @Test
    void theReadmeExampleBuildsAndCollects() throws Exception {
        Scenario burst = ScenarioJson.read(firstJsonBlock("../docs/emulating.md", "## Emulating a process"), "docs/emulating.md");
        EmulatedRuntime process = new RuntimeBuilder().build(burst);
        assertThat(InvariantChecker.check(process)).isEmpty();
        // 90 % of 50,000 strings died in the gen0 collection: gen1 now holds about 5,000 of them
        long[] survivors = {0};
        process.groundTruth().forEachObject((address, mt, size, generation, heap, kind) -> {
            if (generation == 1 && kind == GroundTruth.Kind.OBJECT) {
                survivors[0]++;
            }
        });
        assertThat(survivors[0]).isBetween(4_500L, 5_500L);
    }

    @Test
    void theJavaExampleInTheDocsIsTheJsonOne() throws Exception {
        // the same scenario as docs/scenarios.md's JSON, built as its Java section shows
        Scenario shop = Scenario.builder("shop")
                .runtime(io.clrheap.layout.RuntimeVersion.NET9).gc(io.clrheap.layout.GcFlavor.SERVER).heaps(2).threads(4)
                .objects(3000, 1500, 2500, 6, 12).frozenStrings(40).garbage(0.2).handlesPerKind(4)
                .type(TypeDef.ofClass("Shop.Order", 64, 3))
                .allocate("Shop.Order", 10_000, Step.Lengths.fixed(0), Step.Where.GEN2)
                .allocate(new Step.Allocate("System.String", 50_000, Step.Lengths.logUniform(0, 200), Step.Where.GEN0, -1, 0.9))
                .collect(0)
                .seed(42)
                .build();
        Scenario fromDoc = ScenarioJson.read(firstJsonBlock("../docs/scenarios.md", ""), "doc");
        assertThat(shop.program()).isEqualTo(fromDoc.program().subList(0, 3));
        assertThat(InvariantChecker.check(new RuntimeBuilder().build(shop))).isEmpty();
    }

    @Test
    void anUnknownKeyIsRefusedByName() {
        String json = ScenarioJson.write(Scenarios.all().get(0)).replace("\"threads\"", "\"thread\"");
        assertThatThrownBy(() -> ScenarioJson.read(json, "mine.json")).hasMessageStartingWith("mine.json: unknown key 'thread'");
    }

    @Test
    void anOutOfRangeValueIsRefusedWithTheFile() {
        String json = ScenarioJson.write(Scenarios.all().get(0)).replace("\"heaps\" : 2", "\"heaps\" : 65");
        assertThatThrownBy(() -> ScenarioJson.read(json, "mine.json")).hasMessageContaining("mine.json: heaps must be 1..64");
    }

    @Test
    void anUnknownFeatureIsRefused() {
        String json = ScenarioJson.write(Scenarios.named("mark-bits").orElseThrow()).replace("mark-bits\" ]", "mark-bitz\" ]");
        assertThatThrownBy(() -> ScenarioJson.read(json, "f.json")).hasMessage("f.json: unknown feature 'mark-bitz'");
    }

    @Test
    void invalidJsonSaysWhere() {
        assertThatThrownBy(() -> ScenarioJson.read("{\n \"name\": ,}", "bad.json")).hasMessageStartingWith("bad.json: not valid JSON at line 2");
    }

    @Test
    void pointerFieldsIsAShorthandForTheFirstReferencesAndBadOffsetsAreRefused() {
        String json = ScenarioJson.write(Scenarios.named("user-types").orElseThrow());
        assertThat(json).contains("\"references\" : [ 8, 16, 24 ]");
        String shorthand = json.replaceFirst("\"references\" : \\[ 8, 16, 24 \\]", "\"pointerFields\" : 3");
        assertThat(ScenarioJson.read(shorthand, "u.json")).isEqualTo(ScenarioJson.read(json, "u.json"));
        String unaligned = json.replaceFirst("\"references\" : \\[ 8, 16, 24 \\]", "\"references\" : [ 8, 12 ]");
        assertThatThrownBy(() -> ScenarioJson.read(unaligned, "u.json")).hasMessageContaining("u.json: types[0]: Shop.Order: a reference field's offset");
        String pastTheEnd = json.replaceFirst("\"references\" : \\[ 8, 16, 24 \\]", "\"references\" : [ 56 ]");
        assertThatThrownBy(() -> ScenarioJson.read(pastTheEnd, "u.json")).hasMessageContaining("Shop.Order");
    }
}
