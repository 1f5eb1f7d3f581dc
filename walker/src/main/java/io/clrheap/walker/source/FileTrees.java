package io.clrheap.walker.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deleting the folders clrheap writes for a while (staging folders, work folders). */
public final class FileTrees {

    private FileTrees() {
    }

    /**
     * Deletes a file, or a folder with everything in it. Links are deleted, never followed, so nothing outside
     * {@code path} is touched; nothing there is fine.
     */
    public static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(path);
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
