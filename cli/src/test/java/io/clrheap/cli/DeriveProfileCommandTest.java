package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.layout.FieldLayout;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code clrheap derive-profile} on the real dumps of golden/real: the build file holds exactly the indexes and
 * gc_heap offsets of the committed profiles (read through ProfileLoader), in the build-file format, the same bytes
 * for the same inputs; inputs of different builds are refused and nothing is written.
 */
class DeriveProfileCommandTest {

    private static final Path REAL = Path.of("../golden/real");

    @TempDir
    Path dir;

    private static String core(String name) {
        return REAL.resolve(name).resolve("core.xz").toString();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"net8-svr, , 8.0.30, NET8", "net9-wks, net9-svr, 9.0.1, NET9", "net10-small, net10-svr, 10.0.9, NET10"})
    void writesTheCommittedProfilesIndexesAndOffsets(String first, String second, String version, RuntimeVersion runtime) throws IOException {
        Path out = dir.resolve(version + ".json");
        Outcome r = second == null ? run("derive-profile", core(first), "--out", out.toString())
                : run("derive-profile", core(first), core(second), "--out", out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains(version + " (").contains("written to " + out);
        JsonNode json = new ObjectMapper().readTree(out.toFile());
        assertThat(json.path("build").path("version").asText()).isEqualTo(version);
        assertThat(json.path("build").path("commit").asText()).matches("[0-9a-f]{40}");
        assertThat(json.path("build").path("runtime").asText()).isEqualTo(runtime.moniker());
        assertThat(json.path("sources").has("B:" + version)).isTrue();

        RuntimeLayout server = ProfileLoader.builtIn().load(runtime, GcFlavor.SERVER);
        RuntimeBuild build = server.builds().stream().filter(b -> b.version().equals(version)).findFirst().orElseThrow();
        assertThat(json.path("dacTableLength").get(0).asInt()).isEqualTo(build.dacTable().length());
        Map<String, Integer> expected = new HashMap<>();
        build.dacTable().entries().forEach((name, e) -> expected.put(name, e.index()));
        Map<String, Integer> written = new HashMap<>();
        json.path("dacTable").properties().forEach(e -> {
            written.put(e.getKey(), e.getValue().get(0).asInt());
            assertThat(e.getValue().get(2).asText()).isEqualTo("B:" + version);
            assertThat(e.getValue().get(3).asText()).isNotBlank();
        });
        assertThat(written).isEqualTo(expected);

        Map<String, Long> offsets = new HashMap<>();
        for (FieldLayout f : server.type("gc_heap").fields()) {
            offsets.put(f.name(), f.offset());
        }
        Map<String, Long> writtenOffsets = new HashMap<>();
        json.path("variants").path("server").path("types").path("gc_heap").properties().forEach(e -> {
            writtenOffsets.put(e.getKey(), Long.decode(e.getValue().get(0).asText()));
            assertThat(e.getValue().get(1).asText()).isEqualTo(server.field("gc_heap", e.getKey()).type().name());
        });
        assertThat(writtenOffsets).isEqualTo(offsets);
        assertThat(json.path("checks").size()).isGreaterThan(20);
    }

    @Test
    void theSameInputsGiveTheSameBytesInAnyOrder() {
        Outcome a = run("derive-profile", core("net10-small"), core("net10-svr"));
        Outcome b = run("derive-profile", core("net10-svr"), core("net10-small"));
        assertThat(a.exitCode()).as(a.err()).isZero();
        assertThat(b.exitCode()).as(b.err()).isZero();
        assertThat(a.out()).isEqualTo(b.out()).startsWith("{\n  \"?\": \"Derived by clrheap derive-profile 10.0.9 from ");
    }

    @Test
    void inputsOfDifferentBuildsAreRefusedAndNothingIsWritten() {
        Path out = dir.resolve("mixed.json");
        Outcome r = run("derive-profile", core("net8-svr"), core("net10-svr"), "--out", out.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("the inputs are different builds").contains("8.0.30").contains("10.0.9").contains("nothing written");
        assertThat(out).doesNotExist();
        assertThat(r.out()).isEmpty();
    }

    @Test
    void noInputIsBadUsage() {
        Outcome r = run("derive-profile");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("give at least one DUMP or --pid PID");
    }

    @Test
    void aWindowsMinidumpGivesAWindowsBuildFileWithTheTableMeasuredInIt() throws IOException {
        Outcome g = run("generate", "--scenario", "min-object", "--runtime", "net8", "--gc", "server", "--format", "minidump", "--out",
                dir.resolve("w").toString(), "-q");
        assertThat(g.exitCode()).as(g.err()).isZero();
        Path out = dir.resolve("windows-8.0.30.json");
        // --partial: the emulated process has no AppDomain for that entry's shape to find
        Outcome r = run("derive-profile", dir.resolve("w/min-object-net8-server.dmp").toString(), "--out", out.toString(), "--partial");
        assertThat(r.err()).contains("169 entries");
        String json = Files.readString(out);
        assertThat(json).contains("\"os\": \"windows\"").contains("\"dacTableLength\": [169, \"dump\"")
                .contains("a PE export, no size").contains("\"g_pFreeObjectMethodTable\": [55,").contains("\"Module__vtAddr\": [113,");
    }

    @Test
    void aTruncatedMinidumpIsRefusedSayingWhere() throws IOException {
        Path dump = Files.write(dir.resolve("x.dmp"), new byte[] {'M', 'D', 'M', 'P', (byte) 0x93, (byte) 0xa7, 0, 0});
        Outcome r = run("derive-profile", dump.toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains(dump.toString()).contains("MINIDUMP_HEADER").contains("file offset 0x0");
    }

    @Test
    void intoABuildsFolderWritesTheBuildFileAndListsItSoTheLoaderKnowsTheBuild() throws Exception {
        Path builds = Files.createDirectories(dir.resolve("builds"));
        Files.writeString(builds.resolve("index.json"), "{\n  \"?\": \"test\",\n  \"linux-x64\": []\n}\n");
        Outcome r = run("derive-profile", core("net10-small"), core("net10-svr"), "--into", builds.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("10.0.9 listed in " + builds.resolve("index.json"));
        assertThat(builds.resolve("linux-x64-10.0.9.json")).isRegularFile();
        assertThat(Files.readString(builds.resolve("index.json"))).contains("\"linux-x64\": [\"10.0.9\"]").contains("\"?\": \"test\"");
        // what was written is what the loader reads: the build known from its file, its server gc_heap among it
        ProfileLoader loader = new ProfileLoader(name -> {
            if (name.startsWith("builds/")) {
                Path file = builds.resolve(name.substring("builds/".length()) + ".json");
                try {
                    return Files.isRegularFile(file) ? java.util.Optional.of(Files.readString(file)) : java.util.Optional.empty();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            try (var in = ProfileLoader.class.getResourceAsStream("/io/clrheap/layout/profiles/" + name + ".json")) {
                return in == null ? java.util.Optional.empty() : java.util.Optional.of(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        RuntimeLayout derived = loader.load(RuntimeVersion.NET10, GcFlavor.SERVER, "10.0.9");
        assertThat(derived.primaryBuild().buildFile()).isEqualTo("builds/linux-x64-10.0.9.json");
        RuntimeLayout committed = ProfileLoader.builtIn().load(RuntimeVersion.NET10, GcFlavor.SERVER, "10.0.9");
        assertThat(derived.primaryBuild().dacTable().entries().keySet()).isEqualTo(committed.primaryBuild().dacTable().entries().keySet());
        committed.primaryBuild().dacTable().entries().values().forEach(e ->
                assertThat(derived.primaryBuild().dacTable().indexOf(e.name())).as(e.name()).hasValue(e.index()));
        for (FieldLayout f : committed.type("gc_heap").fields()) {
            assertThat(derived.offset("gc_heap", f.name())).as(f.name()).isEqualTo(f.offset());
        }
    }

    @Test
    void intoAFolderWithoutAnIndexIsBadUsage() {
        Outcome r = run("derive-profile", core("net10-small"), "--into", dir.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("not a builds folder");
    }
}
