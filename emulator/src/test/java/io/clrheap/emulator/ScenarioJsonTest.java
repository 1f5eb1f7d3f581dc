package io.clrheap.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScenarioJsonTest {

    @Test
    void everyBuiltInScenarioReadsBackFromItsJson() {
        for (Scenario s : Scenarios.all()) {
            assertThat(ScenarioJson.read(ScenarioJson.write(s), s.name() + ".json")).isEqualTo(s);
        }
    }

    @Test
    void aJsonScenarioBuildsTheSameHeapAsTheJavaOne() {
        Scenario s = Scenarios.named("every-edge").orElseThrow();
        var fromJava = new RuntimeBuilder().build(s).groundTruth();
        var fromJson = new RuntimeBuilder().build(ScenarioJson.read(ScenarioJson.write(s), "every-edge.json")).groundTruth();
        assertThat(fromJson.objectCount()).isEqualTo(fromJava.objectCount());
        assertThat(fromJson.address(fromJson.objectCount() - 1)).isEqualTo(fromJava.address(fromJava.objectCount() - 1));
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
}
