package io.clrheap.walker.source;

import io.clrheap.value.ByteCount;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Where an {@code .xz} dump is decompressed to: never beside it (its folder may be shared, read-only, full of files
 * that are not ours), but into the user's cache folder, keyed by the compressed bytes and bounded in size
 * ({@link InFolder}), or into a temporary file removed when the dump is closed ({@link Temporary}, {@code --no-cache}).
 * {@link FromEnvironment} is the cache folder this process's environment names, resolved when a dump is opened.
 */
public sealed interface CoreCache {

    /** The cache's default bound: a few real cores (a real .NET process's core is hundreds of MB to a few GB). */
    long DEFAULT_MAX_BYTES = 4L << 30;
    /** The variable that changes the bound: a number of bytes, or one with a k, m or g suffix (KiB, MiB, GiB). */
    String CLRHEAP_CACHE_MAX = "CLRHEAP_CACHE_MAX";

    /**
     * Decompressed cores kept in {@code folder}, at most {@code maxBytes} together; the least recently used are evicted
     * to make room for a new one, and a core larger than the bound is decompressed to a temporary file instead.
     */
    record InFolder(Path folder, long maxBytes) implements CoreCache {
        public InFolder {
            Objects.requireNonNull(folder, "folder");
            if (maxBytes < 0) {
                throw new IllegalArgumentException("a cache's bound is a number of bytes, not " + maxBytes);
            }
        }
    }

    /** No cache: a temporary file, removed when the dump is closed, at exit, or on Ctrl-C. */
    record Temporary() implements CoreCache {
    }

    /** The cache folder and bound this process's environment names ({@link #of}), resolved when a dump is opened. */
    record FromEnvironment() implements CoreCache {
    }

    static CoreCache temporary() {
        return new Temporary();
    }

    static CoreCache fromEnvironment() {
        return new FromEnvironment();
    }

    static CoreCache inFolder(Path folder, long maxBytes) {
        return new InFolder(folder, maxBytes);
    }

    /**
     * The cache {@code environment} names: {@link CacheFolder#of}'s {@code cores/}, bounded by {@code $CLRHEAP_CACHE_MAX} or
     * {@link #DEFAULT_MAX_BYTES}.
     *
     * @throws IOException when {@code $CLRHEAP_CACHE_MAX} is no size (the message quotes it)
     */
    static InFolder of(Map<String, String> environment, String userHome) throws IOException {
        String max = environment.get(CLRHEAP_CACHE_MAX);
        long bound = max == null || max.isBlank() ? DEFAULT_MAX_BYTES : size(max);
        return new InFolder(CacheFolder.of(environment, userHome).cores(), bound);
    }

    /** This cache, with {@link FromEnvironment} resolved from this process's environment. */
    default CoreCache resolved() throws IOException {
        return this instanceof FromEnvironment
                ? of(CacheFolder.environmentOfThisProcess(), System.getProperty("user.home")) : this;
    }

    /** {@code text} as bytes ({@link ByteCount}: digits, 0x hex, or a number with k, m or g, 1024-based). */
    static long size(String text) throws IOException {
        return ByteCount.parse(text).orElseThrow(() -> new IOException("$" + CLRHEAP_CACHE_MAX + " is '" + text
                + "', not a size (bytes, or a number with k, m or g: 4g)"));
    }
}
