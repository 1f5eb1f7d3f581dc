package io.clrheap.layout.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A build file (profiles/builds/OS-ARCH-VERSION.json) adds one build to its version's profile, with the fields it moves. */
class BuildFileTest {

    /** The built-in profiles, with {@code builds/index} and the build files replaced by {@code files}. */
    private static ProfileLoader loaderWith(Map<String, String> files) {
        ProfileLoader.DocumentSource resources = name -> {
            try (var in = ProfileLoader.class.getResourceAsStream("/io/clrheap/layout/profiles/" + name + ".json")) {
                return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        return new ProfileLoader(name -> files.containsKey(name) ? Optional.of(files.get(name))
                : name.startsWith("builds/") ? Optional.empty() : resources.read(name));
    }

    /** The dacTable of net10.0 (10.0.9's indexes), each moved by {@code shift} from {@code from} on, as a build file's section. */
    private static String table(int from, int shift) {
        RuntimeLayout net10 = ProfileLoader.builtIn().load(RuntimeVersion.NET10, GcFlavor.SERVER, "10.0.9");
        StringBuilder s = new StringBuilder("{");
        net10.primaryBuild().dacTable().entries().values().forEach(e -> s.append(s.length() > 1 ? "," : "")
                .append('"').append(e.name()).append("\":[").append(e.index() >= from ? e.index() + shift : e.index()).append(",\"dump\",\"B:10.0.3\"]"));
        return s.append('}').toString();
    }

    private static Map<String, String> build1003(String dacTable, int length, String gcHeap) {
        Map<String, String> files = new HashMap<>();
        files.put("builds/index", "{\"linux-x64\": [\"10.0.3\"]}");
        files.put("builds/linux-x64-10.0.3", """
                {"?": "test", "build": {"version": "10.0.3", "fileVersion": "10.0.326.7603", "commit": "c2435c3e0f46de784341ac3ed62863ce77e117b4",
                  "runtime": "net10.0", "os": "linux", "arch": "x64"},
                 "sources": {"B:10.0.3": "a real 10.0.3 process"},
                 "dacTableLength": [%d, "dump", "B:10.0.3", "st_size"],
                 "dacTable": %s,
                 "variants": {"server": {"types": {"gc_heap": %s}}},
                 "checks": ["one"]}
                """.formatted(length, dacTable, gcHeap));
        return files;
    }

    @Test
    void aBuildFileAddsItsBuildWithItsIdentityAndTable() {
        ProfileLoader loader = loaderWith(build1003(table(30, -1), 128, "{}"));
        RuntimeLayout net10 = loader.load(RuntimeVersion.NET10, GcFlavor.WORKSTATION);
        assertThat(net10.builds()).extracting(RuntimeBuild::version).containsExactly("10.0.9", "10.0.11", "10.0.3");
        RuntimeBuild b = net10.builds().getLast();
        assertThat(b.fileVersion()).isEqualTo("10.0.326.7603");
        assertThat(b.commit()).startsWith("c2435c3e");
        assertThat(b.buildFile()).isEqualTo("builds/linux-x64-10.0.3.json");
        assertThat(b.dacTable().length()).isEqualTo(128);
        assertThat(b.dacTable().indexOf("g_pGCHeap")).hasValue(39);
        assertThat(b.dacTable().indexOf("g_card_table")).hasValue(35);
        assertThat(b.dacTable().indexOf("g_heap_type")).hasValue(18);
    }

    @Test
    void theLayoutOfABuildIsItsVersionsProfileWithTheFieldsItMovesAndNamesItPrimary() {
        ProfileLoader loader = loaderWith(build1003(table(30, -1), 128,
                "{\"alloc_allocated\": [\"0x1460\", \"pointer\", \"dump\", \"B:10.0.3\", \"gc_heap_field_offsets[0] = 5216\"],"
                        + "\"ephemeral_heap_segment\": [\"0x1468\", \"pointer\", \"dump\", \"B:10.0.3\"],"
                        + "\"finalize_queue\": [\"0x1470\", \"pointer\", \"dump\", \"B:10.0.3\"],"
                        + "\"free_regions\": [\"0x1478\", \"pointer\", \"dump\", \"B:10.0.3\"]}"));
        RuntimeLayout server = loader.load(RuntimeVersion.NET10, GcFlavor.SERVER, "10.0.3");
        assertThat(server.primaryBuild().version()).isEqualTo("10.0.3");
        assertThat(server.offset("gc_heap", "alloc_allocated")).isEqualTo(0x1460);
        assertThat(server.offset("gc_heap", "ephemeral_heap_segment")).isEqualTo(0x1460 + 8);
        assertThat(server.profileName()).endsWith("builds/linux-x64-10.0.3.json#server");
        // the version's own layout is untouched
        assertThat(loader.load(RuntimeVersion.NET10, GcFlavor.SERVER).offset("gc_heap", "alloc_allocated")).isEqualTo(0x1458);
        assertThat(loader.load(RuntimeVersion.NET10, GcFlavor.SERVER, "10.0.9").offset("gc_heap", "alloc_allocated")).isEqualTo(0x1458);
    }

    @Test
    void aFieldMovedOntoAnotherIsRefusedNamingTheBuildFile() {
        ProfileLoader loader = loaderWith(build1003(table(30, -1), 128,
                "{\"alloc_allocated\": [\"0x1460\", \"pointer\", \"dump\", \"B:10.0.3\"]}"));
        assertThatThrownBy(() -> loader.load(RuntimeVersion.NET10, GcFlavor.SERVER, "10.0.3")).isInstanceOf(ProfileException.class)
                .hasMessageContaining("builds/linux-x64-10.0.3.json#server").hasMessageContaining("overlaps");
    }

    @Test
    void aBuildFileMustGiveEveryEntryTheProfileNames() {
        String table = table(30, -1).replaceFirst("\"g_pGCHeap\":\\[[0-9]+,\"dump\",\"B:10.0.3\"],?", "").replace(",}", "}");
        ProfileLoader loader = loaderWith(build1003(table, 128, "{}"));
        assertThatThrownBy(() -> loader.load(RuntimeVersion.NET10, GcFlavor.WORKSTATION)).isInstanceOf(ProfileException.class)
                .hasMessageContaining("builds/linux-x64-10.0.3.json").hasMessageContaining("g_pGCHeap").hasMessageContaining("missing");
    }

    @Test
    void anIndexBeyondTheTableIsRefused() {
        ProfileLoader loader = loaderWith(build1003(table(30, -1), 50, "{}"));
        assertThatThrownBy(() -> loader.load(RuntimeVersion.NET10, GcFlavor.WORKSTATION)).isInstanceOf(ProfileException.class)
                .hasMessageContaining("beyond the table length 50 of build 10.0.3");
    }

    @Test
    void aBuildFileWhoseVersionIsNotTheIndexsIsRefused() {
        Map<String, String> files = build1003(table(30, -1), 128, "{}");
        files.put("builds/index", "{\"linux-x64\": [\"10.0.3\"]}");
        files.put("builds/linux-x64-10.0.3", files.get("builds/linux-x64-10.0.3").replace("\"version\": \"10.0.3\"", "\"version\": \"10.0.4\""));
        assertThatThrownBy(() -> loaderWith(files).load(RuntimeVersion.NET10, GcFlavor.WORKSTATION)).isInstanceOf(ProfileException.class)
                .hasMessageContaining("the index lists it as 10.0.3");
    }

    @Test
    void anUnknownBuildIsRefusedNamingTheKnownOnes() {
        assertThatThrownBy(() -> ProfileLoader.builtIn().load(RuntimeVersion.NET9, GcFlavor.SERVER, "9.0.99")).isInstanceOf(ProfileException.class)
                .hasMessageContaining("no such build of net9.0").hasMessageContaining("9.0.1");
    }
}
