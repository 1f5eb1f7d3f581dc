package io.clrheap.walker.source;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child JVM for {@link InProgressFilesTest}: writes {@code args[0]} and registers it as in progress (as {@link #SHOWN}), writes
 * {@code args[1]} and registers then unregisters it, says {@code ready} and waits to be stopped.
 */
public final class InProgressChild {

    /** What the partial file is registered as: the output it would have become. */
    static final String SHOWN = "big/large-net8-server.core";

    private InProgressChild() {
    }

    public static void main(String[] args) throws Exception {
        Path partial = Files.write(Path.of(args[0]), new byte[4096]);
        InProgressFiles.register(partial, SHOWN);
        Path complete = Files.write(Path.of(args[1]), new byte[4096]);
        InProgressFiles.register(complete);
        InProgressFiles.unregister(complete);
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(60_000);
    }
}
