package io.clrheap.layout.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The loader composes layers and rejects malformed profiles, naming file, structure and field. */
class ProfileLoaderTest {

    /** Serves {@code extra} documents by name, the built-in profiles otherwise. */
    private static ProfileLoader loaderWith(Map<String, String> extra) {
        ProfileLoader.DocumentSource resources = name -> {
            try (var in = ProfileLoader.class.getResourceAsStream("/io/clrheap/layout/profiles/" + name + ".json")) {
                return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        return new ProfileLoader(name -> extra.containsKey(name) ? Optional.of(extra.get(name)) : resources.read(name));
    }

    /** A profile that builds on net8.0 and adds {@code body} to its types. */
    private static ProfileLoader overNet8(String types) {
        return loaderWith(Map.of("custom", "{\"version\":0,\"baseline\":\"net8.0\",\"types\":{" + types + "}}"));
    }

    @Test
    void aLayerAddsAFieldToABaselineStructure() {
        RuntimeLayout l = overNet8("\"heap_segment\":{\"!\":\"0xc0\",\"my_extra\":[\"0xb8\",\"pointer\",\"inferred\",\"DACH\"]}")
                .load("custom", GcFlavor.SERVER);
        assertThat(l.offset("heap_segment", "my_extra")).isEqualTo(0xb8);
        assertThat(l.type("heap_segment").size()).hasValue(0xc0);
        assertThat(l.offset("heap_segment", "next")).isEqualTo(0x30);
        assertThat(l.profileName()).isEqualTo("coreclr-linux-x64.json + net8.0.json#server + custom.json");
    }

    @Test
    void nullRemovesAFieldOfTheBaseline() {
        RuntimeLayout l = overNet8("\"heap_segment\":{\"background_allocated\":null}").load("custom", GcFlavor.WORKSTATION);
        assertThat(l.type("heap_segment").findField("background_allocated")).isEmpty();
    }

    @Test
    void theServerVariantAddsTheOwningHeapToHeapSegment() {
        ProfileLoader loader = ProfileLoader.builtIn();
        assertThat(loader.load("net8.0", GcFlavor.SERVER).profileName()).endsWith("net8.0.json#server");
        assertThat(loader.load("net8.0", GcFlavor.SERVER).type("heap_segment").findField("heap")).isPresent();
        assertThat(loader.load("net8.0", GcFlavor.WORKSTATION).type("heap_segment").findField("heap")).isEmpty();
    }

    @Test
    void rejectsOverlappingFields() {
        assertThatThrownBy(() -> overNet8("\"heap_segment\":{\"bogus\":[\"0x2c\",\"uint64\",\"inferred\",\"DACH\"]}")
                .load("custom", GcFlavor.SERVER))
                .isInstanceOfSatisfying(ProfileException.class, e -> {
                    assertThat(e.file()).isEqualTo("custom.json");
                    assertThat(e.structure()).isEqualTo("heap_segment");
                })
                .hasMessageContaining("custom.json: heap_segment.")
                .hasMessageContaining("overlaps");
    }

    @Test
    void rejectsAFieldBeyondTheStructureSize() {
        assertThatThrownBy(() -> overNet8("\"gc_alloc_context\":{\"past_end\":[\"0x38\",\"uint32\",\"inferred\",\"GCIF\"]}")
                .load("custom", GcFlavor.SERVER))
                .isInstanceOf(ProfileException.class)
                .hasMessage("custom.json: gc_alloc_context.past_end: ends at 0x3c, beyond the structure's size 0x38");
    }

    @Test
    void rejectsAnUnknownType() {
        assertThatThrownBy(() -> overNet8("\"heap_segment\":{\"odd\":[\"0x200\",\"not_a_struct\",\"inferred\",\"GCIF\"]}")
                .load("custom", GcFlavor.SERVER))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("custom.json: heap_segment.odd: unknown type 'not_a_struct'");
    }

    @Test
    void rejectsAMissingRequiredStructure() {
        assertThatThrownBy(() -> overNet8("\"heap_segment\":null").load("custom", GcFlavor.SERVER))
                .isInstanceOfSatisfying(ProfileException.class, e -> assertThat(e.structure()).isEqualTo("heap_segment"))
                .hasMessageContaining("heap_segment: required structure is missing for net8.0 server");
    }

    @Test
    void requiresGcHeapOnlyForServerGc() {
        ProfileLoader loader = overNet8("\"gc_heap\":null");
        assertThat(loader.load("custom", GcFlavor.WORKSTATION).findType("gc_heap")).isEmpty();
        assertThatThrownBy(() -> loader.load("custom", GcFlavor.SERVER)).hasMessageContaining("gc_heap: required structure is missing");
    }

    @Test
    void rejectsASourceThatIsNotCited() {
        assertThatThrownBy(() -> overNet8("\"heap_segment\":{\"x\":[\"0x200\",\"pointer\",\"source\",\"NOWHERE\"]}")
                .load("custom", GcFlavor.SERVER))
                .hasMessageContaining("custom.json: heap_segment.x: source 'NOWHERE' is not in the profile's sources");
    }

    @Test
    void rejectsAnUnknownCertainty() {
        assertThatThrownBy(() -> overNet8("\"heap_segment\":{\"x\":[\"0x200\",\"pointer\",\"guessed\",\"DACH\"]}")
                .load("custom", GcFlavor.SERVER))
                .hasMessageContaining("heap_segment.x: unknown certainty 'guessed'");
    }

    @Test
    void rejectsAFieldWithoutProvenance() {
        assertThatThrownBy(() -> overNet8("\"heap_segment\":{\"x\":200}").load("custom", GcFlavor.SERVER))
                .hasMessageContaining("heap_segment.x: a field must be [offset, type, certainty, source(, note)]");
    }

    @Test
    void rejectsAStructureThatEmbedsItself() {
        assertThatThrownBy(() -> overNet8("\"loop_a\":{\"!\":\"0x10\",\"b\":[\"0x0\",\"loop_b\",\"inferred\",\"GCIF\"]},"
                + "\"loop_b\":{\"!\":\"0x10\",\"a\":[\"0x0\",\"loop_a\",\"inferred\",\"GCIF\"]}").load("custom", GcFlavor.SERVER))
                .hasMessageContaining("embeds itself");
    }

    @Test
    void rejectsInvalidJsonWithItsLocation() {
        assertThatThrownBy(() -> loaderWith(Map.of("broken", "{\"version\":0,\n\"types\":{,}}")).load("broken", GcFlavor.SERVER))
                .isInstanceOf(ProfileException.class)
                .hasMessageStartingWith("broken.json: not valid JSON at line 2");
    }

    @Test
    void rejectsDuplicateKeys() {
        assertThatThrownBy(() -> loaderWith(Map.of("dup", "{\"version\":0,\"baseline\":\"net8.0\",\"types\":{\"a\":{},\"a\":{}}}"))
                .load("dup", GcFlavor.SERVER))
                .hasMessageContaining("dup.json: not valid JSON").hasMessageContaining("Duplicate field 'a'");
    }

    @Test
    void rejectsABaselineCycle() {
        assertThatThrownBy(() -> loaderWith(Map.of(
                "a", "{\"version\":0,\"baseline\":\"b\"}",
                "b", "{\"version\":0,\"baseline\":\"a\"}")).load("a", GcFlavor.SERVER))
                .hasMessage("a.json: baseline chain loops: a -> b -> a");
    }

    @Test
    void rejectsTwoGlobalsAtOneDacTableIndex() {
        assertThatThrownBy(() -> loaderWith(Map.of("dupidx", "{\"version\":0,\"baseline\":\"net8.0\",\"dacTable\":{\"g_other\":[20,\"inferred\",\"DACH\"]}}"))
                .load("dupidx", GcFlavor.SERVER))
                .hasMessageContaining("index 20 is also");
    }

    @Test
    void rejectsAnOffsetBeyondFourGibibytes() {
        assertThatThrownBy(() -> overNet8("\"Thread\":{\"far\":[\"0x7ffffffffffffff8\",\"pointer\",\"inferred\",\"DACH\"]}").load("custom", GcFlavor.SERVER))
                .hasMessageContaining("Thread.far: offset 9223372036854775800 is outside 0..4294967296");
    }

    @Test
    void rejectsAnArrayLengthThatIsNotANumber() {
        assertThatThrownBy(() -> overNet8("\"Thread\":{\"arr\":[\"0x400\",\"uint8[99999999999]\",\"inferred\",\"DACH\"]}").load("custom", GcFlavor.SERVER))
                .hasMessageContaining("the array length of 'uint8[99999999999]' is outside");
    }

    @Test
    void writingAProfileTwiceGivesTheSameBytes() {
        var layout = ProfileLoader.builtIn().load("net10.0", GcFlavor.SERVER);
        assertThat(ProfileWriter.toJson(layout)).isEqualTo(ProfileWriter.toJson(ProfileLoader.builtIn().load("net10.0", GcFlavor.SERVER)));
        assertThat(ProfileWriter.toJson(layout).indexOf("\"ThreadStore::s_pThreadStore\""))
                .isLessThan(ProfileWriter.toJson(layout).indexOf("\"g_pFreeObjectMethodTable\""));
    }

    @Test
    void rejectsAnUnknownTopLevelKey() {
        assertThatThrownBy(() -> loaderWith(Map.of("typo", "{\"version\":0,\"baseline\":\"net8.0\",\"typez\":{}}")).load("typo", GcFlavor.SERVER))
                .hasMessageContaining("typo.json: unknown top-level key 'typez'");
    }

    @Test
    void rejectsAMissingProfile() {
        assertThatThrownBy(() -> ProfileLoader.builtIn().load("net7.0", GcFlavor.SERVER))
                .hasMessage("net7.0.json: no such profile");
    }

    @Test
    void rejectsAnEmbeddedStructureOfUnknownSize() {
        assertThatThrownBy(() -> overNet8("\"holder\":{\"t\":[\"0x0\",\"Thread\",\"inferred\",\"GCIF\"]}").load("custom", GcFlavor.SERVER))
                .hasMessageContaining("custom.json: holder.t: embeds 'Thread', whose size is not known");
    }

    @Test
    void writtenProfilesReadBackEqual() {
        ProfileLoader loader = ProfileLoader.builtIn();
        for (var v : io.clrheap.layout.RuntimeVersion.values()) {
            for (var gc : GcFlavor.values()) {
                RuntimeLayout original = loader.load(v, gc);
                String json = ProfileWriter.toJson(original);
                RuntimeLayout reread = loaderWith(Map.of("written", json)).load("written", gc);
                assertThat(reread.types()).as("%s", original.describe()).isEqualTo(original.types());
                assertThat(reread.constants()).isEqualTo(original.constants());
                assertThat(reread.globals()).isEqualTo(original.globals());
                assertThat(reread.contracts()).isEqualTo(original.contracts());
                assertThat(reread.builds()).isEqualTo(original.builds());
                assertThat(reread.dacFieldOrder()).isEqualTo(original.dacFieldOrder());
            }
        }
    }
}
