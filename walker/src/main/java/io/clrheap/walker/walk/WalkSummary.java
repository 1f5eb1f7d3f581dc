package io.clrheap.walker.walk;

/** Totals of a walk: objects visited, their (unaligned) bytes, problems met. */
public record WalkSummary(long objects, long bytes, long problems) {

    public static final WalkSummary EMPTY = new WalkSummary(0, 0, 0);

    public WalkSummary plus(WalkSummary other) {
        return new WalkSummary(objects + other.objects, bytes + other.bytes, problems + other.problems);
    }
}
