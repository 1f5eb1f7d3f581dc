package io.clrheap.golden.corruption;

import io.clrheap.walker.heap.ProblemKind;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * A corrupted file and what {@code walk --verify} must say about it: either a problem of {@code kind} at
 * {@code address}, with every answer-key object outside {@code lost} still found (and none invented outside it), or a
 * refusal at open (exit 3) whose message holds every one of {@code refusal}.
 */
record Damage(Path file, ProblemKind kind, long address, LongPredicate lost, List<String> refusal) {

    static final LongPredicate NOTHING = a -> false;

    static Damage problem(Path file, ProblemKind kind, long address, LongPredicate lost) {
        return new Damage(file, kind, address, lost, List.of());
    }

    static Damage refused(Path file, String... message) {
        return new Damage(file, null, 0, a -> true, List.of(message));
    }

    boolean isRefusal() {
        return kind == null;
    }

    /** Objects whose address lies in {@code [from, to)}. */
    static LongPredicate span(long from, long to) {
        return a -> Long.compareUnsigned(a, from) >= 0 && Long.compareUnsigned(a, to) < 0;
    }
}
