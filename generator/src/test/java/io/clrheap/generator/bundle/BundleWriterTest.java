package io.clrheap.generator.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.memory.MemoryRange;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.source.bundle.Bundle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a bundle holds and how: read back with Commons Compress's tar reader and GNU tar, not with the walker's. */
class BundleWriterTest {

    private static EmulatedRuntime process;

    @TempDir
    Path dir;

    @BeforeAll
    static void build() {
        process = new RuntimeBuilder().build(Scenario.defaultScenario(RuntimeVersion.NET8, GcFlavor.SERVER));
    }

    private Path answers() throws IOException {
        Path answers = Files.createDirectories(dir.resolve("answers"));
        BundleRoundTripTest.writeAnswer(answers, "objects.tsv", "0x1\t0x2\t24\n");
        BundleRoundTripTest.writeAnswer(answers, "stat/dumpheap-stat.txt", "Total 1 objects, 24 bytes\n");
        return answers;
    }

    private Path write(EmulatedRuntime p, Path answers, String name) throws IOException {
        Path file = dir.resolve(name + BundleWriter.SUFFIX);
        BundleWriter.write(p, BundleInfo.of(p, "0.1.0"), answers, file);
        return file;
    }

    /** Every entry, in archive order, with its bytes (the test bundles are small). */
    private static Map<TarArchiveEntry, byte[]> entries(Path file) throws IOException {
        Map<TarArchiveEntry, byte[]> entries = new LinkedHashMap<>();
        try (InputStream in = new TarArchiveInputStream(new XZCompressorInputStream(Files.newInputStream(file)))) {
            TarArchiveInputStream tar = (TarArchiveInputStream) in;
            for (TarArchiveEntry e; (e = tar.getNextEntry()) != null; ) {
                entries.put(e, tar.readAllBytes());
            }
        }
        return entries;
    }

    private static byte[] entry(Map<TarArchiveEntry, byte[]> entries, String name) {
        return entries.entrySet().stream().filter(e -> e.getKey().getName().equals(name)).findFirst().orElseThrow().getValue();
    }

    @Test
    void theSameProcessInfoAndAnswersGiveAByteIdenticalBundle() throws IOException {
        Path answers = answers();
        Path first = write(process, answers, "first");
        EmulatedRuntime again = new RuntimeBuilder().build(Scenario.defaultScenario(RuntimeVersion.NET8, GcFlavor.SERVER));
        Path second = write(again, answers, "second");
        assertThat(Files.mismatch(first, second)).isEqualTo(-1L);
        Path rewritten = write(process, answers, "first");
        assertThat(Files.readAllBytes(rewritten)).isEqualTo(Files.readAllBytes(second));
    }

    @Test
    void theManifestComesFirstThenEveryEntrySortedByName() throws IOException {
        List<String> names = entries(write(process, answers(), "b")).keySet().stream().map(TarArchiveEntry::getName).toList();
        assertThat(names.getFirst()).isEqualTo("manifest.json");
        assertThat(names.subList(1, names.size())).isSorted()
                .contains("answer/objects.tsv", "answer/stat/dumpheap-stat.txt", "type-names.txt");
        assertThat(names).filteredOn(n -> n.startsWith("memory/")).hasSize(process.memory().touchedRanges().size());
    }

    @Test
    void everyEntryIsARegularFileWithMtimeZeroOwnerRootAndMode0644() throws IOException {
        for (TarArchiveEntry e : entries(write(process, answers(), "b")).keySet()) {
            assertThat(e.isFile()).as(e.getName()).isTrue();
            assertThat(e.getModTime().getTime()).as(e.getName()).isZero();
            assertThat(e.getLongUserId()).isZero();
            assertThat(e.getLongGroupId()).isZero();
            assertThat(e.getUserName()).isEmpty();
            assertThat(e.getGroupName()).isEmpty();
            assertThat(e.getMode()).isEqualTo(0100644);
            assertThat(e.getExtraPaxHeaders()).as(e.getName()).isEmpty();
        }
    }

    @Test
    void theManifestListsTheFactsMappingsRangesAndTheDigestOfEveryOtherEntry() throws Exception {
        Map<TarArchiveEntry, byte[]> entries = entries(write(process, answers(), "b"));
        JsonNode m = JsonMapper.builder().build().readTree(entry(entries, "manifest.json"));
        assertThat(m.get("format").asText()).isEqualTo("clrheap-bundle");
        assertThat(m.get("formatVersion").asInt()).isEqualTo(1);
        assertThat(m.get("scenario").asText()).isEqualTo("default");
        assertThat(m.get("seed").asLong()).isEqualTo(process.scenario().seed());
        assertThat(m.get("runtime").asText()).isEqualTo("net8");
        assertThat(m.get("runtimeBuild").asText()).isEqualTo("8.0.30");
        assertThat(m.get("gc").asText()).isEqualTo("server");
        assertThat(m.get("clrheapVersion").asText()).isEqualTo("0.1.0");

        List<String> mappings = new ArrayList<>();
        m.get("mappings").forEach(f -> mappings.add(String.join(" ", f.get("path").asText(), f.get("start").asText(),
                f.get("end").asText(), f.get("fileOffset").asText(), f.get("permissions").asText())));
        assertThat(mappings).containsExactlyElementsOf(process.mappings().stream().map(f -> String.format("%s 0x%x 0x%x 0x%x %s",
                f.path(), f.start(), f.end(), f.fileOffset(), f.permissions())).toList());

        List<MemoryRange> ranges = new ArrayList<>();
        m.get("memory").forEach(r -> {
            long start = Long.parseUnsignedLong(r.get("start").asText().substring(2), 16);
            ranges.add(new MemoryRange(start, r.get("length").asLong()));
            assertThat(r.get("entry").asText()).isEqualTo(String.format("memory/%016x.bin", start));
            byte[] bytes = entry(entries, r.get("entry").asText());
            assertThat(bytes).isEqualTo(process.memory().readBytes(start, bytes.length));
        });
        assertThat(ranges).isEqualTo(process.memory().touchedRanges());

        List<String> listed = new ArrayList<>();
        for (JsonNode e : m.get("entries")) {
            String name = e.get("name").asText();
            byte[] bytes = entry(entries, name);
            assertThat(e.get("size").asLong()).as(name).isEqualTo(bytes.length);
            assertThat(e.get("sha256").asText()).as(name)
                    .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
            listed.add(name);
        }
        assertThat(listed).containsExactlyElementsOf(entries.keySet().stream().map(TarArchiveEntry::getName)
                .filter(n -> !n.equals("manifest.json")).toList());
    }

    @Test
    void typeNamesAreOneLinePerMethodTableSortedAndReadByTypeNamesLoad() throws IOException {
        byte[] text = entry(entries(write(process, answers(), "b")), "type-names.txt");
        List<String> lines = new String(text, StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(process.typeNames().size()).allMatch(l -> l.matches("0x[0-9a-f]+ \\S.*"));
        List<Long> mts = lines.stream().map(l -> Long.parseUnsignedLong(l.substring(2, l.indexOf(' ')), 16)).toList();
        assertThat(mts).isSortedAccordingTo(Long::compareUnsigned);
        Path file = Files.write(dir.resolve("type-names.txt"), text);
        TypeNames names = TypeNames.load(file);
        assertThat(names.size()).isEqualTo(process.typeNames().size());
        process.typeNames().forEach((mt, name) -> assertThat(names.name(mt)).contains(name));
    }

    @Test
    void theAnswerFilesAreStoredUnderAnswerAsTheyAre() throws IOException {
        Path answers = answers();
        byte[] binary = new byte[70_000];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) (i * 13);
        }
        Files.write(answers.resolve("stat").resolve("binary.bin"), binary);
        try (Bundle bundle = Bundle.open(write(process, answers, "b"))) {
            assertThat(bundle.answerNames()).containsExactly("objects.tsv", "stat/binary.bin", "stat/dumpheap-stat.txt");
            try (InputStream in = bundle.openAnswer("stat/binary.bin")) {
                assertThat(in.readAllBytes()).isEqualTo(binary);
            }
        }
    }

    @Test
    void anAnswerPathLongerThanATarNameFieldReadsBack() throws IOException {
        Path answers = answers();
        String longPath = "deep/".repeat(30) + "answer-with-a-long-name.txt";
        BundleRoundTripTest.writeAnswer(answers, longPath, "deep\n");
        try (Bundle bundle = Bundle.open(write(process, answers, "b")); InputStream in = bundle.openAnswer(longPath)) {
            assertThat(in.readAllBytes()).isEqualTo("deep\n".getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void anEmptyAnswerDirectoryGivesNoAnswerEntries() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Map<TarArchiveEntry, byte[]> entries = entries(write(process, empty, "b"));
        assertThat(entries.keySet()).noneMatch(e -> e.getName().startsWith("answer/"));
    }

    @Test
    void refusesAnAnswerDirectoryHoldingASymbolicLink() throws IOException {
        Path answers = answers();
        Files.createSymbolicLink(answers.resolve("link"), Path.of("/etc/passwd"));
        Path out = dir.resolve("b" + BundleWriter.SUFFIX);
        assertThatThrownBy(() -> BundleWriter.write(process, BundleInfo.of(process, "0.1.0"), answers, out))
                .isInstanceOf(IOException.class).hasMessageContaining("link").hasMessageContaining("not a regular file");
        assertThat(out).doesNotExist();
        try (var files = Files.list(dir)) {
            assertThat(files).noneMatch(f -> f.getFileName().toString().endsWith(".partial"));
        }
    }

    @Test
    void refusesAnAnswerDirectoryThatIsNotADirectory() {
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> BundleWriter.write(process, BundleInfo.of(process, "0.1.0"), missing, dir.resolve("x.tar.xz")))
                .isInstanceOf(IOException.class).hasMessageContaining("is not a directory");
    }

    @Test
    void gnuTarExtractsTheBundleToTheFilesTheManifestDescribes() throws Exception {
        assumeThat(Path.of("/usr/bin/tar")).exists();
        Path file = write(process, answers(), "b");
        Path out = Files.createDirectories(dir.resolve("extracted"));
        Process tar = new ProcessBuilder("/usr/bin/tar", "-xJf", file.toString(), "-C", out.toString())
                .redirectErrorStream(true).start();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        tar.getInputStream().transferTo(output);
        assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).as(output.toString(StandardCharsets.UTF_8)).isZero();
        JsonNode m = JsonMapper.builder().build().readTree(out.resolve("manifest.json").toFile());
        for (JsonNode e : m.get("entries")) {
            byte[] bytes = Files.readAllBytes(out.resolve(e.get("name").asText()));
            assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)))
                    .isEqualTo(e.get("sha256").asText());
        }
    }
}
