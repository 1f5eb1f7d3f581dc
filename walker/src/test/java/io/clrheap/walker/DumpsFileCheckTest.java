package io.clrheap.walker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.clrheap.walker.source.DumpFormatException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/** The front door looks at what a file is before opening it, and at an xz file's content before unpacking it. */
class DumpsFileCheckTest {

    @TempDir
    Path dir;

    /** A FIFO made with mkfifo(1), or the test is skipped. */
    static Path fifo(Path dir) throws IOException, InterruptedException {
        Path fifo = dir.resolve("dump.fifo");
        int exit;
        try {
            exit = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor();
        } catch (IOException e) {
            exit = -1;
        }
        assumeTrue(exit == 0 && Files.exists(fifo), "mkfifo(1) is not available here: no FIFO to test with");
        return fifo;
    }

    @Test
    void aFifoIsRefusedWithoutBlockingOnIt() throws Exception {
        Path fifo = fifo(dir);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> Dumps.open(fifo))
                .isInstanceOf(IOException.class)
                .hasMessage(fifo + " is a FIFO (named pipe), not a regular file: a dump must be a file"));
    }

    @Test
    void aDirectoryIsRefusedNamingIt() {
        assertThatThrownBy(() -> Dumps.open(dir))
                .isInstanceOf(IOException.class)
                .hasMessage(dir + " is a directory, not a regular file: a dump must be a file");
    }

    @Test
    void aDeviceIsRefusedNamingIt() {
        Path devNull = Path.of("/dev/null");
        assumeTrue(Files.exists(devNull), "no /dev/null here");
        assertThatThrownBy(() -> Dumps.open(devNull))
                .isInstanceOf(IOException.class)
                .hasMessage("/dev/null is a character device, not a regular file: a dump must be a file");
    }

    @Test
    void anXzThatIsNeitherACoreNorABundleIsRefusedFromItsFirstBlock() throws IOException {
        byte[] random = new byte[1 << 20];
        new Random(18).nextBytes(random);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new XZOutputStream(bytes, new LZMA2Options(0))) {
            out.write(random);
        }
        Path file = Files.write(dir.resolve("x.clrheap.tar.xz"), bytes.toByteArray());
        assertThatThrownBy(() -> Dumps.open(file))
                .isInstanceOf(DumpFormatException.class)
                .hasMessageStartingWith(file + ": an xz file whose data are neither an ELF core, a minidump nor a fixture bundle's tar: "
                        + String.format("they start with %02x %02x", random[0] & 0xff, random[1] & 0xff))
                .hasMessageEndingWith("; refused before decompressing the rest");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).isEqualTo(List.of("x.clrheap.tar.xz"));
        }
    }
}
