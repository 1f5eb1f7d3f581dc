package io.clrheap.emulator.gc;

import io.clrheap.emulator.truth.GroundTruth;

/** An allocation context handed to a thread: [pointer, limit), limit + 24 reserved; its objects go to {@code run}. */
public final class AllocationContext {
    public long pointer;
    public final long limit;
    public final GroundTruth.Run run;

    AllocationContext(long pointer, long limit, GroundTruth.Run run) {
        this.pointer = pointer;
        this.limit = limit;
        this.run = run;
    }
}
