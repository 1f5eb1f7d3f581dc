package io.clrheap.walker.source.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.source.elf.MappedFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A well-formed bundle opens as the memory, mappings, type names and answer files it holds. */
class BundleTest {

    private static final long MODULE = 0x7f0000000000L;
    private static final long HEAP = 0x10000000L;

    @TempDir
    Path dir;

    private Path write(TestBundle bundle) throws IOException {
        return Files.write(dir.resolve("test.clrheap.tar.xz"), bundle.build());
    }

    private Bundle open(TestBundle bundle) throws IOException {
        return Bundle.open(write(bundle), BundleLimits.DEFAULT, Files.createDirectories(dir.resolve("tmp")));
    }

    @Test
    void readsTheBytesOfEveryMemoryRangeAtTheirAddresses() throws IOException {
        try (Bundle bundle = open(TestBundle.typical())) {
            byte[] module = TestBundle.pattern(0x2000, 1);
            byte[] heap = TestBundle.pattern(0x1000, 2);
            assertThat(bundle.readBytes(MODULE, module.length)).isEqualTo(module);
            assertThat(bundle.readBytes(HEAP, heap.length)).isEqualTo(heap);
            assertThat(bundle.readByte(HEAP + 5)).isEqualTo(heap[5]);
            assertThat(bundle.readLong(MODULE + 0x1ff8)).isEqualTo(littleEndian(module, 0x1ff8, 8));
            assertThat(bundle.readInt(HEAP + 3)).isEqualTo((int) littleEndian(heap, 3, 4));
            assertThat(bundle.readShort(HEAP + 0xffe)).isEqualTo((short) littleEndian(heap, 0xffe, 2));
        }
    }

    @Test
    void listsItsRangesSortedByAddressAndAnswersContains() throws IOException {
        try (Bundle bundle = open(TestBundle.typical())) {
            assertThat(bundle.ranges()).containsExactly(new MemoryRange(HEAP, 0x1000), new MemoryRange(MODULE, 0x2000));
            assertThat(bundle.contains(HEAP, 0x1000)).isTrue();
            assertThat(bundle.contains(HEAP + 0xfff, 2)).isFalse();
            assertThat(bundle.contains(HEAP + 0x1000, 0)).isFalse();
            assertThat(bundle.manifest().memory()).extracting(BundleMemoryRange::start).containsExactly(HEAP, MODULE);
        }
    }

    @Test
    void aReadOutsideTheRangesThrowsMissingMemoryNamingTheAddress() throws IOException {
        try (Bundle bundle = open(TestBundle.typical())) {
            assertThatThrownBy(() -> bundle.readLong(HEAP + 0x1000))
                    .isInstanceOfSatisfying(MissingMemoryException.class, e -> {
                        assertThat(e.address()).isEqualTo(HEAP + 0x1000);
                        assertThat(e.reason()).isEqualTo(MissingMemoryException.Reason.NOT_MAPPED);
                    })
                    .hasMessageContaining("0x10001000").hasMessageContaining("test.clrheap.tar.xz");
            assertThatThrownBy(() -> bundle.readLong(HEAP + 0xffc)).isInstanceOf(MissingMemoryException.class);
            assertThatThrownBy(() -> bundle.readByte(0)).isInstanceOf(MissingMemoryException.class);
            assertThatThrownBy(() -> bundle.read(MODULE - 1, new byte[4], 0, 4)).isInstanceOf(MissingMemoryException.class);
        }
    }

    @Test
    void aReadMaySpanAdjacentRanges() throws IOException {
        byte[] a = TestBundle.pattern(0x1000, 3);
        byte[] b = TestBundle.pattern(0x1000, 4);
        try (Bundle bundle = open(new TestBundle().memory(HEAP, a).memory(HEAP + 0x1000, b))) {
            assertThat(bundle.ranges()).containsExactly(new MemoryRange(HEAP, 0x2000));
            byte[] both = new byte[0x2000];
            System.arraycopy(a, 0, both, 0, a.length);
            System.arraycopy(b, 0, both, a.length, b.length);
            assertThat(bundle.readBytes(HEAP, 0x2000)).isEqualTo(both);
            assertThat(bundle.readLong(HEAP + 0xffc)).isEqualTo(littleEndian(both, 0xffc, 8));
        }
    }

    @Test
    void givesTheMappedFilesTypeNamesAndManifestFacts() throws IOException {
        try (Bundle bundle = open(TestBundle.typical())) {
            assertThat(bundle.mappedFiles()).containsExactly(new MappedFile(MODULE, MODULE + 0x2000, 0, "/usr/lib/libcoreclr.so"));
            assertThat(bundle.typeNames()).containsExactly(Map.entry(0x7f0000001000L, "System.String"),
                    Map.entry(0x7f0000001100L, "System.Object"));
            BundleManifest m = bundle.manifest();
            assertThat(m.formatVersion()).isEqualTo(1);
            assertThat(m.scenario()).isEqualTo("test");
            assertThat(m.seed()).isEqualTo(7);
            assertThat(m.runtime()).isEqualTo("net8");
            assertThat(m.runtimeBuild()).isEqualTo("8.0.30");
            assertThat(m.gc()).isEqualTo("server");
            assertThat(m.clrheapVersion()).isEqualTo("0.0.0-test");
            assertThat(bundle.describe()).isEqualTo("test.clrheap.tar.xz");
        }
    }

    @Test
    void givesTheAnswerFilesByTheirNamesUnderAnswer() throws IOException {
        byte[] nested = "nested\n".getBytes(StandardCharsets.UTF_8);
        try (Bundle bundle = open(TestBundle.typical().entry("answer/sub/dir/more.txt", nested))) {
            assertThat(bundle.answerNames()).containsExactly("objects.tsv", "sub/dir/more.txt");
            assertThat(bundle.answerSize("sub/dir/more.txt")).isEqualTo(nested.length);
            try (InputStream in = bundle.openAnswer("sub/dir/more.txt")) {
                assertThat(in.readAllBytes()).isEqualTo(nested);
            }
            try (InputStream in = bundle.openAnswer("objects.tsv")) {
                assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("0x10000000\t0x7f0000001000\t24\n");
            }
            assertThatThrownBy(() -> bundle.openAnswer("missing.txt")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("missing.txt");
        }
    }

    @Test
    void leavesNoTemporaryFileBehindAndRefusesReadsAfterClose() throws IOException {
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        Bundle bundle = Bundle.open(write(TestBundle.typical()), BundleLimits.DEFAULT, temp);
        assertThat(bundle.readByte(HEAP)).isEqualTo(TestBundle.pattern(1, 2)[0]);
        bundle.close();
        bundle.close(); // twice is harmless
        try (var files = Files.list(temp)) {
            assertThat(files).isEmpty();
        }
        assertThatThrownBy(() -> bundle.readByte(HEAP)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void opensABundleWithoutTypeNamesOrAnswersOrMemory() throws IOException {
        try (Bundle bundle = open(new TestBundle())) {
            assertThat(bundle.ranges()).isEmpty();
            assertThat(bundle.typeNames()).isEmpty();
            assertThat(bundle.answerNames()).isEmpty();
            assertThatThrownBy(() -> bundle.readByte(HEAP)).isInstanceOf(MissingMemoryException.class);
        }
    }

    @Test
    void readsExtendedHeadersForLongNamesAndBase256Sizes() throws IOException {
        String longName = "answer/" + "d/".repeat(60) + "file.txt";
        byte[] content = "long\n".getBytes(StandardCharsets.UTF_8);
        TestBundle bundle = TestBundle.typical().entry(longName, content).omit(longName).extra(tar -> tar
                .extended(Map.of("path", longName, "mtime", "0"))
                .entry("./short-name-ignored", '0', content, content.length));
        try (Bundle opened = open(bundle)) {
            assertThat(opened.answerNames()).contains(longName.substring("answer/".length()));
        }
        byte[] paxSized = "sized by an extended header\n".getBytes(StandardCharsets.UTF_8);
        TestBundle withPaxSize = TestBundle.typical().entry("answer/p.txt", paxSized).omit("answer/p.txt")
                .extra(tar -> tar.extended(Map.of("size", Integer.toString(paxSized.length)))
                        .entry("answer/p.txt", '0', paxSized, 0));
        try (Bundle opened = open(withPaxSize); InputStream in = opened.openAnswer("p.txt")) {
            assertThat(in.readAllBytes()).isEqualTo(paxSized);
        }
        byte[] base256 = "sized in base 256\n".getBytes(StandardCharsets.UTF_8);
        TestBundle withBase256 = TestBundle.typical().entry("answer/b.txt", base256).omit("answer/b.txt")
                .extra(tar -> tar.fileWithBase256Size("answer/b.txt", base256));
        try (Bundle opened = open(withBase256); InputStream in = opened.openAnswer("b.txt")) {
            assertThat(in.readAllBytes()).isEqualTo(base256);
        }
    }

    @Test
    void readsMemoryThatIsMostlyZeroPages() throws IOException {
        byte[] mostlyZero = new byte[8 << 20];
        mostlyZero[100] = 1;
        mostlyZero[mostlyZero.length - 1] = 2;
        try (Bundle bundle = open(new TestBundle().memory(HEAP, mostlyZero))) {
            assertThat(bundle.readByte(HEAP + 100)).isEqualTo((byte) 1);
            assertThat(bundle.readByte(HEAP + mostlyZero.length - 1)).isEqualTo((byte) 2);
            assertThat(bundle.readLong(HEAP + 0x400000)).isZero();
            assertThat(bundle.readBytes(HEAP, mostlyZero.length)).isEqualTo(mostlyZero);
        }
    }

    private static long littleEndian(byte[] bytes, int at, int length) {
        long value = 0;
        for (int i = length - 1; i >= 0; i--) {
            value = (value << 8) | (bytes[at + i] & 0xff);
        }
        return value;
    }
}
