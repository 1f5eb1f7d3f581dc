package io.clrheap.capture;

import io.clrheap.capture.ipc.DiagnosticsClient;
import io.clrheap.capture.ipc.DiagnosticsException;
import io.clrheap.capture.nettrace.Nettrace;
import io.clrheap.capture.nettrace.NettraceReader;
import io.clrheap.capture.snapshot.GcHeapSnapshot;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The runtime's own heap snapshot, asked for through its diagnostics server as {@link Capture} does it: an EventPipe
 * session with the GC heap dump keywords ({@link Capture#KEYWORDS}), which makes the runtime collect and walk its
 * heap, recorded until the walk is over ({@link HeapWalkWatch}) or the stream is idle, then decoded with the
 * addresses moved back to where they were before that GC ({@link GcHeapSnapshot}).
 *
 * @param snapshot the decoded snapshot (at least one object)
 * @param traceBytes the trace's size
 * @param events the trace's events
 */
public record SnapshotTrace(GcHeapSnapshot snapshot, long traceBytes, int events) {

    /**
     * Records the session's nettrace stream into {@code trace} and decodes it.
     *
     * @param idle the trace is complete when the heap walk's events or any bytes have stopped coming for this long
     * @param maxTrace the longest the session runs
     * @throws DiagnosticsException when the trace holds no heap walk
     */
    public static SnapshotTrace take(DiagnosticsClient client, Path trace, Duration idle, Duration maxTrace) throws IOException {
        long traceBytes;
        try (DiagnosticsClient.TraceSession session = client.collectTracing(256,
                List.of(new DiagnosticsClient.Provider(Capture.RUNTIME_PROVIDER, Capture.KEYWORDS, Capture.LEVEL_VERBOSE, "")));
                OutputStream t = new BufferedOutputStream(Files.newOutputStream(trace));
                HeapWalkWatch watch = new HeapWalkWatch(t, idle)) {
            traceBytes = session.record(watch, idle, maxTrace, watch::walkOver);
        }
        Nettrace nettrace;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(trace), 1 << 16)) {
            nettrace = NettraceReader.read(in);
        }
        GcHeapSnapshot snapshot = GcHeapSnapshot.decode(nettrace);
        if (snapshot.nodeCount() == 0) {
            throw new DiagnosticsException("the trace (" + traceBytes + " bytes, " + nettrace.events().size() + " events) holds no GCBulkNode event: the runtime did not walk its heap");
        }
        return new SnapshotTrace(snapshot, traceBytes, nettrace.events().size());
    }
}
