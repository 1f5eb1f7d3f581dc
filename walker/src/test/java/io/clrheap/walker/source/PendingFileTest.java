package io.clrheap.walker.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An output file is written under a hidden temporary name, appears only when complete, and is removed when writing fails. */
class PendingFileTest {

    @TempDir
    Path dir;

    @Test
    void aFullDiskRemovesThePartialFileAndTheMessageNamesTheOutput() {
        Path target = dir.resolve("big.core");
        assertThatThrownBy(() -> PendingFile.write(target, partial -> {
            try (OutputStream out = new DiskFilledAfter(Files.newOutputStream(partial), 4096)) {
                out.write(new byte[1 << 20]);
            }
        })).isInstanceOf(IncompleteOutputException.class)
                .hasMessage("No space left on device (removed the incomplete " + target + ")");
        assertThat(listing()).isEmpty();
    }

    @Test
    void whileWritingTheFileIsHiddenUnderATemporaryNameAndTheOutputDoesNotExist() throws IOException {
        Path target = dir.resolve("fixture.dmp");
        try (PendingFile file = PendingFile.beside(target)) {
            Files.write(file.path(), new byte[16]);
            assertThat(listing()).singleElement().satisfies(name -> assertThat(name).startsWith(".fixture.dmp.").endsWith(".partial"));
            assertThat(target).doesNotExist();
            assertThat(InProgressFiles.isRegistered(file.path())).isTrue();
        }
    }

    @Test
    void aCommittedFileIsTheOnlyOneLeftAndNoLongerRegistered() throws IOException {
        Path target = dir.resolve("report.xml");
        Path[] temporary = new Path[1];
        PendingFile.write(target, partial -> Files.writeString(temporary[0] = partial, "<testsuite/>"));
        assertThat(listing()).containsExactly("report.xml");
        assertThat(target).hasContent("<testsuite/>");
        assertThat(InProgressFiles.isRegistered(temporary[0])).isFalse();
    }

    @Test
    void aFileClosedUncommittedIsRemoved() throws IOException {
        Path target = dir.resolve("page.html");
        Path partial;
        try (PendingFile file = PendingFile.beside(target)) {
            partial = Files.writeString(file.path(), "<html>");
        }
        assertThat(listing()).isEmpty();
        assertThat(InProgressFiles.isRegistered(partial)).isFalse();
    }

    @Test
    void anExceptionFromTheWriterRemovesThePartialFileAndTheOldOutputStays() throws IOException {
        Path target = Files.writeString(dir.resolve("index.json"), "old");
        assertThatThrownBy(() -> PendingFile.write(target, partial -> {
            Files.writeString(partial, "half");
            throw new IllegalStateException("the writer broke");
        })).isInstanceOf(IncompleteOutputException.class).hasMessage("the writer broke (removed the incomplete " + target + ")");
        assertThat(listing()).containsExactly("index.json");
        assertThat(target).hasContent("old");
    }

    private List<String> listing() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A disk that fills up after {@code room} bytes: what a writer sees from a full file system. */
    private static final class DiskFilledAfter extends FilterOutputStream {
        private long room;

        DiskFilledAfter(OutputStream out, long room) {
            super(out);
            this.room = room;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            int n = (int) Math.min(len, room);
            out.write(b, off, n);
            room -= n;
            if (n < len) {
                throw new IOException("No space left on device");
            }
        }
    }
}
