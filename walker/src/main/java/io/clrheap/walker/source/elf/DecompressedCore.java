package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.InProgressFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The decompressed copy of an {@code .xz} dump that a reader maps.
 *
 * @param file      the copy: a cache entry, or a temporary file
 * @param temporary whether it is a temporary file, deleted by {@link #discard()} once the dump is closed (and until then
 *                  registered with {@link InProgressFiles}, so that Ctrl-C deletes it too)
 */
public record DecompressedCore(Path file, boolean temporary) {

    public DecompressedCore {
        Objects.requireNonNull(file, "file");
    }

    /** Deletes a temporary copy (its mapping is closed: on Linux an unlinked mapped file would stay readable anyway). */
    public void discard() {
        if (!temporary) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // left for the exit hook: InProgressFiles still holds it
            return;
        }
        InProgressFiles.unregister(file);
    }
}
