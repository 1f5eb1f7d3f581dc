package io.clrheap.walker;

import io.clrheap.process.NativeCalls;
import io.clrheap.walker.heap.WalkLimits;
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
 */
public record OpenOptions(Optional<Path> module, Consumer<String> notes, WalkLimits limits, Optional<NativeCalls> nativeCalls) {

    /** No module file, notes dropped, the default limits, the dump path of discovery. */
    public static final OpenOptions DEFAULT = new OpenOptions(Optional.empty(), note -> { }, WalkLimits.DEFAULT, Optional.empty());

    public OpenOptions {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(notes, "notes");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(nativeCalls, "nativeCalls");
    }

    public OpenOptions withModule(Path file) {
        return new OpenOptions(Optional.ofNullable(file), notes, limits, nativeCalls);
    }

    public OpenOptions withNotes(Consumer<String> receiver) {
        return new OpenOptions(module, receiver, limits, nativeCalls);
    }

    public OpenOptions withLimits(WalkLimits walkLimits) {
        return new OpenOptions(module, notes, walkLimits, nativeCalls);
    }

    public OpenOptions withNativeCalls(NativeCalls calls) {
        return new OpenOptions(module, notes, limits, Optional.ofNullable(calls));
    }
}
