package io.clrheap.walker.source;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The user's clrheap cache folder: {@code $CLRHEAP_CACHE} when set, else {@code $XDG_CACHE_HOME/clrheap} (the XDG Base
 * Directory Specification's "user-specific non-essential data files"), else {@code ~/.cache/clrheap}. Decompressed cores
 * go in {@link #cores()}; the golden corpus built outside a clone in a folder of its own; the tests' downloaded .NET
 * runtimes live in {@code runtimes/} (their own variable, {@code $CLRHEAP_RUNTIME_CACHE}), which nothing here touches.
 *
 * <p>Resolved here only, from an environment given as a map, so that tests pass their own instead of changing the
 * process's.
 *
 * @param root the folder
 */
public record CacheFolder(Path root) {

    /** The variable naming the folder itself. */
    public static final String CLRHEAP_CACHE = "CLRHEAP_CACHE";
    /** The XDG base folder for caches; clrheap's is {@code clrheap} under it. */
    public static final String XDG_CACHE_HOME = "XDG_CACHE_HOME";
    /**
     * The system property that stands for {@code $CLRHEAP_CACHE} (and wins over it): {@code java -Dclrheap.cache=DIR -jar ...},
     * for a JVM whose environment cannot be set.
     */
    public static final String PROPERTY = "clrheap.cache";

    public CacheFolder {
        Objects.requireNonNull(root, "root");
    }

    /**
     * The folder {@code environment} names, {@code userHome}'s {@code .cache/clrheap} when it names none. A variable that
     * is blank counts as unset, as the XDG specification asks of {@code $XDG_CACHE_HOME}.
     */
    public static CacheFolder of(Map<String, String> environment, String userHome) {
        String explicit = environment.get(CLRHEAP_CACHE);
        if (explicit != null && !explicit.isBlank()) {
            return new CacheFolder(Path.of(explicit));
        }
        String xdg = environment.get(XDG_CACHE_HOME);
        if (xdg != null && !xdg.isBlank()) {
            return new CacheFolder(Path.of(xdg, "clrheap"));
        }
        return new CacheFolder(Path.of(userHome, ".cache", "clrheap"));
    }

    /** This process's folder: its environment, with the {@link #PROPERTY} property as {@code $CLRHEAP_CACHE} when set. */
    public static CacheFolder ofThisProcess() {
        return of(environmentOfThisProcess(), System.getProperty("user.home"));
    }

    /** This process's environment, with the {@link #PROPERTY} property as {@code $CLRHEAP_CACHE} when set. */
    public static Map<String, String> environmentOfThisProcess() {
        String property = System.getProperty(PROPERTY);
        if (property == null || property.isBlank()) {
            return System.getenv();
        }
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.put(CLRHEAP_CACHE, property);
        return environment;
    }

    /** Where decompressed cores go ({@code cores/}). */
    public Path cores() {
        return root.resolve("cores");
    }
}
