package io.clrheap.walker.graph;

import java.util.Locale;

/**
 * What holds a root, in the names the answer key's {@code roots.tsv} uses: the GC handle types (gcinterface.h
 * HNDTYPE_*, whose numbers are the profile's {@code handle.type.*} constants), the finalization queue and the threads'
 * stacks.
 */
public enum RootKind {
    WEAK_SHORT(false), WEAK_LONG(false), STRONG(true), PINNED(true),
    /** A variable-strength handle: strong unless its user data says otherwise; counted as strong (the conservative reading). */
    VARIABLE(true),
    /** A reference-counted (COM) handle: strong while the count is positive; counted as strong. */
    REFCOUNTED(true),
    /** A dependent handle: its primary is weak; its secondary is alive while the primary is. */
    DEPENDENT(false),
    ASYNC_PINNED(true), SIZED_REF(true), WEAK_NATIVE_COM(false), WEAK_INTERIOR_POINTER(false),
    /** An object in the finalization queue that is ready for finalization (the f-reachable queue): alive until its finalizer runs. */
    FINALIZER(true),
    /** An object registered for finalization and not yet ready: listed, but it keeps nothing alive. */
    FINALIZABLE(false),
    /**
     * A word of a managed thread's stack (at or above its stack pointer) or one of its registers that holds an object's
     * address or an address inside one, found by a conservative scan: the runtime reports the precise subset of these.
     */
    STACK(true),
    /**
     * A thread's non-collectible thread-static array ({@code ThreadLocalData.pNonCollectibleTlsArrayData}, .NET 9 and
     * later): the GC reports it with the thread's roots (ScanThreadStaticRoots), the runtime's heap snapshot as a Stack root.
     */
    THREAD_STATIC(true);

    private final boolean keepsAlive;

    RootKind(boolean keepsAlive) {
        this.keepsAlive = keepsAlive;
    }

    /** Whether the GC treats this root as keeping its target alive. */
    public boolean keepsAlive() {
        return keepsAlive;
    }

    /** The lowercase, hyphenated name: {@code weak-short}, {@code async-pinned}, {@code finalizer}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The kind of a handle type named as the profile names it ({@code weak_short}, {@code asyncpinned}, …), or null. */
    public static RootKind ofHandleType(String profileName) {
        return switch (profileName) {
            case "weak_short" -> WEAK_SHORT;
            case "weak_long" -> WEAK_LONG;
            case "strong" -> STRONG;
            case "pinned" -> PINNED;
            case "variable" -> VARIABLE;
            case "refcounted" -> REFCOUNTED;
            case "dependent" -> DEPENDENT;
            case "asyncpinned" -> ASYNC_PINNED;
            case "sizedref" -> SIZED_REF;
            case "weak_native_com" -> WEAK_NATIVE_COM;
            case "weak_interior_pointer" -> WEAK_INTERIOR_POINTER;
            default -> null;
        };
    }
}
