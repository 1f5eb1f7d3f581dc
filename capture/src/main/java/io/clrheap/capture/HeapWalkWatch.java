package io.clrheap.capture;

import io.clrheap.capture.nettrace.EventMetadata;
import io.clrheap.capture.nettrace.NettraceLimits;
import io.clrheap.capture.nettrace.NettraceReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.time.Duration;
import java.util.Set;

/**
 * Watches the snapshot's trace as it streams (a copy of the bytes is parsed on a thread of its own) and says when the
 * runtime's heap walk is over: heap-walk events (GCBulkNode, GCBulkEdge, GCBulkType, the root events) have come, and
 * none for {@code idle} since. A quiet process's stream falls idle then anyway; a busy one's never does, since every
 * GC it runs streams its GC events, so without this the session would run to {@code --max-trace}. The runtime walks the
 * heap once, in the GC the session starts (GCHeapCollect), and the events still in its buffers come when the session
 * is stopped. If the copy cannot be parsed, the watch never says the walk is over (the session ends when idle, as before).
 */
final class HeapWalkWatch extends OutputStream {

    /** GCBulkType, GCBulkRootEdge, GCBulkRootConditionalWeakTableElementEdge, GCBulkNode, GCBulkEdge, GCBulkRootStaticVar. */
    private static final Set<Integer> WALK_EVENTS = Set.of(15, 16, 17, 18, 19, 38);

    private final OutputStream out;
    private final long idleNanos;
    private final PipedOutputStream pipe;
    private final Thread parser;
    private volatile boolean walkSeen;
    private volatile long lastWalkEvent;
    private volatile boolean broken;

    HeapWalkWatch(OutputStream out, Duration idle) throws IOException {
        this.out = out;
        this.idleNanos = idle.toNanos();
        PipedInputStream in = new PipedInputStream(1 << 20);
        this.pipe = new PipedOutputStream(in);
        this.parser = Thread.ofVirtual().name("capture-trace-watch").start(() -> {
            try (in) {
                NettraceReader.read(in, NettraceLimits.DEFAULT, this::event);
            } catch (IOException | RuntimeException e) {
                broken = true;
            }
        });
    }

    private void event(EventMetadata metadata, long timestamp, byte[] payload) {
        if (metadata != null && metadata.provider().equals(Capture.RUNTIME_PROVIDER) && WALK_EVENTS.contains(metadata.eventId())) {
            lastWalkEvent = System.nanoTime();
            walkSeen = true;
        }
    }

    /** The heap walk's events came, and none for the idle time since. */
    boolean walkOver() {
        return walkSeen && !broken && System.nanoTime() - lastWalkEvent > idleNanos;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        if (!broken) {
            try {
                pipe.write(b, off, len);
            } catch (IOException e) {
                broken = true; // the parser stopped (a stream it cannot read): only the copy matters
            }
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Ends the parser's input and waits for it a little; does not close the copy's stream. */
    @Override
    public void close() throws IOException {
        try {
            pipe.close();
        } catch (IOException e) {
            // the parser is gone
        }
        try {
            parser.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
