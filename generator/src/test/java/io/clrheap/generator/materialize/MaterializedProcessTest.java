package io.clrheap.generator.materialize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The helper process on hand-written plans: it places anonymous and file-backed ranges at their addresses, refuses an
 * address that is taken (naming both ranges), and removes its folder however it ends after READY.
 */
class MaterializedProcessTest {

    /** Far from where a JVM maps anything, with or without address-space randomisation. */
    private static final long BASE = 0x6a00_0000_0000L;

    @TempDir
    Path dir;

    @Test
    void anAddressThatIsTakenIsRefusedNamingTheRangeAndWhatHoldsIt() throws Exception {
        MaterializedImage image = image(List.of(
                new PlacedRange(BASE, BASE + 0x2000, "rw-p", null, 0, "first range"),
                new PlacedRange(BASE + 0x1000, BASE + 0x3000, "rw-p", null, 0x2000, "second range")));
        assertThatThrownBy(() -> MaterializedProcess.start(image, Duration.ofMinutes(1), 2))
                .isInstanceOfSatisfying(MaterializeException.class, e -> {
                    assertThat(e.kind()).isEqualTo(MaterializeException.Kind.ADDRESS_TAKEN);
                    assertThat(e.getMessage()).startsWith("2 helper processes refused: cannot place [0x6a0000001000, 0x6a0000003000) second range (anonymous)")
                            .contains("the address is taken by 6a0000000000-6a0000002000 rw-p 00000000 00:00 0");
                });
        // before READY the folder is the caller's: it may start another helper on it
        assertThat(dir.resolve(MaterializedImage.PLAN)).exists();
    }

    @Test
    void theHelperHoldsTheBytesAtTheirAddressesAndRemovesItsFolderWhenItsStdinCloses() throws Exception {
        Path file = dir.resolve("lib").resolve("libcoreclr.so");
        Files.createDirectories(file.getParent());
        Files.write(file, page((byte) 0x7f, 0x2000));
        MaterializedImage image = image(List.of(
                new PlacedRange(BASE, BASE + 0x2000, "r--p", file, 0, "module"),
                new PlacedRange(BASE + 0x10000, BASE + 0x11000, "rw-p", null, 0, "heap")));
        MaterializedProcess helper = MaterializedProcess.start(image, null, 1);
        long pid = helper.pid();
        try {
            List<String> maps = Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps"));
            assertThat(maps).anyMatch(l -> l.startsWith("6a0000000000-6a0000002000 r--p 00000000 ") && l.endsWith(file.toString()));
            assertThat(maps).anyMatch(l -> l.startsWith("6a0000010000-6a0000011000 rw-p 00000000 00:00 0"));
            // the image file is gone once copied; the module file stays while it is mapped
            assertThat(dir.resolve(MaterializedImage.MEMORY)).doesNotExist();
            assertThat(file).exists();
            // another process reads them there (as root, or with ptrace rights: what process_vm_readv and gdb need too)
            try (var mem = new java.io.RandomAccessFile("/proc/" + pid + "/mem", "r")) {
                mem.seek(BASE + 0x1ff8);
                assertThat(mem.readLong()).isEqualTo(0x7f7f7f7f7f7f7f7fL);
                mem.seek(BASE + 0x10000);
                assertThat(mem.readLong()).isEqualTo(0xababababababababL);
            }
        } finally {
            helper.close();
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(dir).doesNotExist();
    }

    @Test
    void aHelperEndedBySigtermOrByItsDurationRemovesItsFolder() throws Exception {
        MaterializedImage image = image(List.of(new PlacedRange(BASE, BASE + 0x1000, "rw-p", null, 0, "heap")));
        MaterializedProcess helper = MaterializedProcess.start(image, null, 1);
        ProcessHandle.of(helper.pid()).orElseThrow().destroy(); // SIGTERM
        helper.onExit().get(30, TimeUnit.SECONDS);
        assertThat(dir).doesNotExist();

        Files.createDirectories(dir);
        MaterializedImage again = image(List.of(new PlacedRange(BASE, BASE + 0x1000, "rw-p", null, 0, "heap")));
        MaterializedProcess brief = MaterializedProcess.start(again, Duration.ofMillis(300), 1);
        assertThat(brief.onExit().get(30, TimeUnit.SECONDS).exitValue()).isZero();
        assertThat(dir).doesNotExist();
    }

    /** A plan folder with {@code ranges}; the anonymous ones are filled with 0xab from memory.bin. */
    private MaterializedImage image(List<PlacedRange> ranges) throws IOException {
        StringBuilder plan = new StringBuilder(MaterializedImage.PLAN_HEADER).append('\n');
        long bytes = 0;
        for (PlacedRange r : ranges) {
            plan.append(r.toLine()).append('\n');
            if (r.anonymous()) {
                bytes = Math.max(bytes, r.offset() + r.length());
            }
        }
        Files.writeString(dir.resolve(MaterializedImage.PLAN), plan, StandardCharsets.UTF_8);
        Files.write(dir.resolve(MaterializedImage.MEMORY), page((byte) 0xab, (int) bytes));
        return new MaterializedImage(dir, ranges, null, dir.resolve(MaterializedImage.TYPE_NAMES));
    }

    private static byte[] page(byte value, int length) {
        byte[] b = new byte[length];
        java.util.Arrays.fill(b, value);
        return b;
    }
}
