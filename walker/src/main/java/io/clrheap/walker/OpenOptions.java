package io.clrheap.walker;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.process.NativeCalls;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.source.CoreCache;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How {@link Dumps} opens a dump: immutable, {@link #DEFAULT} plus withers.
 *
 * @param module      the runtime binary, for dumps that lack its headers (a trimmed core); the dump's own wins when present
 * @param notes       one-line notes while opening (e.g. that an {@code .xz} is being decompressed)
 * @param limits      the bounds discovery and the walk keep to (heaps, regions, threads, objects)
 * @param nativeCalls when present, the heap is found in-process (a thread's allocation context → GCHeap → DiagDescrGenerations)
 *                    through these calls instead of through {@code g_dacTable}; only an emulated process answers them
 * @param profiles    the runtime profiles (and build files) the build is identified and laid out with
 * @param coreCache   where an {@code .xz} dump is decompressed: the cache folder (by default the one the environment names),
 *                    or a temporary file removed when the dump is closed ({@code --no-cache}); never beside the dump
 */
public record OpenOptions(Optional<Path> module, Consumer<String> notes, WalkLimits limits, Optional<NativeCalls> nativeCalls,
                          ProfileLoader profiles, CoreCache coreCache) {

    /**
     * No module file, notes dropped, the default limits, the dump path of discovery, the built-in profiles, the cache
     * folder the environment names.
     */
    public static final OpenOptions DEFAULT = new OpenOptions(Optional.empty(), note -> { }, WalkLimits.DEFAULT, Optional.empty(),
            ProfileLoader.builtIn(), CoreCache.fromEnvironment());

    public OpenOptions {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(notes, "notes");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(nativeCalls, "nativeCalls");
        Objects.requireNonNull(profiles, "profiles");
        Objects.requireNonNull(coreCache, "coreCache");
    }

    public OpenOptions withModule(Path file) {
        return new OpenOptions(Optional.ofNullable(file), notes, limits, nativeCalls, profiles, coreCache);
    }

    public OpenOptions withNotes(Consumer<String> receiver) {
        return new OpenOptions(module, receiver, limits, nativeCalls, profiles, coreCache);
    }

    public OpenOptions withLimits(WalkLimits walkLimits) {
        return new OpenOptions(module, notes, walkLimits, nativeCalls, profiles, coreCache);
    }

    /** The runtime profiles the dump's build is identified and laid out with (default: the built-in ones). */
    public OpenOptions withProfiles(ProfileLoader loader) {
        return new OpenOptions(module, notes, limits, nativeCalls, loader, coreCache);
    }

    public OpenOptions withNativeCalls(NativeCalls calls) {
        return new OpenOptions(module, notes, limits, Optional.ofNullable(calls), profiles, coreCache);
    }

    /** Where an {@code .xz} dump is decompressed (default: the cache folder the environment names). */
    public OpenOptions withCoreCache(CoreCache cache) {
        return new OpenOptions(module, notes, limits, nativeCalls, profiles, cache);
    }
}
