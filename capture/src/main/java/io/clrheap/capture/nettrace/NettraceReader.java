package io.clrheap.capture.nettrace;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a nettrace stream (format V5, FastSerialization 1), as an EventPipe session streams it over the diagnostics
 * IPC: the "Nettrace" magic, the "!FastSerialization.1" header, the Trace object, then EventBlock, MetadataBlock,
 * StackBlock and SPBlock objects until the NullReference tag. Events in blocks with header compression (flag 1) and
 * without are decoded; every event's metadata id must be defined by a metadata record of the stream. Stacks and
 * sequence points are skipped. The events come back sorted by timestamp.
 *
 * <p>Format: docs/ipc-protocol.md section 7 (the nettrace V5 format, each fact with its source).
 * Every size and count read from the stream is checked against {@link NettraceLimits} before anything is allocated
 * for it; a truncated or corrupt stream is a {@link NettraceFormatException} naming the byte offset.
 *
 * <p>Long because the block kinds share one reader of the stream's position and limits, and reading events as they
 * arrive (a sink per event, for a session that must end when a busy process's heap walk ends) is the same decoding.
 */
public final class NettraceReader {

    static final byte[] MAGIC = "Nettrace".getBytes(StandardCharsets.US_ASCII);
    static final String SERIALIZATION = "!FastSerialization.1";
    static final int TAG_NULL_REFERENCE = 1;
    static final int TAG_BEGIN_PRIVATE_OBJECT = 5;
    static final int TAG_END_OBJECT = 6;

    /** Compressed header flag bits (the nettrace format, "Header compression": docs/ipc-protocol.md section 7). */
    static final int FLAG_METADATA_ID = 1;
    static final int FLAG_CAPTURE_THREAD_AND_SEQUENCE = 2;
    static final int FLAG_THREAD_ID = 4;
    static final int FLAG_STACK_ID = 8;
    static final int FLAG_ACTIVITY_ID = 16;
    static final int FLAG_RELATED_ACTIVITY_ID = 32;
    static final int FLAG_DATA_LENGTH = 128;

    /** Told of each event as the stream is read, in stream order (not sorted), with its metadata when already defined. */
    @FunctionalInterface
    public interface EventSink {
        void event(EventMetadata metadata, long timestamp, byte[] payload);
    }

    private final NettraceLimits limits;
    private final EventSink sink;
    private final Map<Integer, EventMetadata> metadata = new HashMap<>();
    private final List<Pending> events = new ArrayList<>();
    private long records;

    private record Pending(int metadataId, long timestamp, long threadId, long captureThreadId, int sequence, long offset, byte[] payload) {
    }

    private NettraceReader(NettraceLimits limits, EventSink sink) {
        this.limits = limits;
        this.sink = sink;
    }

    /** Reads the whole stream (to its NullReference tag) with the default limits. */
    public static Nettrace read(InputStream in) throws IOException {
        return read(in, NettraceLimits.DEFAULT);
    }

    /** Reads the whole stream (to its NullReference tag). */
    public static Nettrace read(InputStream in, NettraceLimits limits) throws IOException {
        return read(in, limits, null);
    }

    /** Reads the whole stream (to its NullReference tag), telling {@code sink} (when not null) of each event as it is read. */
    public static Nettrace read(InputStream in, NettraceLimits limits, EventSink sink) throws IOException {
        return new NettraceReader(limits, sink).readAll(new StreamCursor(in.markSupported() ? in : new BufferedInputStream(in, 1 << 16)));
    }

    private Nettrace readAll(StreamCursor c) throws IOException {
        byte[] magic = c.bytes(MAGIC.length, "the Nettrace magic");
        if (!Arrays.equals(magic, MAGIC)) {
            throw new NettraceFormatException(0, "not a nettrace stream: the first bytes are not \"Nettrace\"");
        }
        String header = string(c, "the serialization header");
        if (!header.equals(SERIALIZATION)) {
            throw new NettraceFormatException(c.offset(), "unknown serialization \"" + header + "\" (expected " + SERIALIZATION + ")");
        }
        TraceInfo info = null;
        while (true) {
            long at = c.offset();
            int tag = c.u8("an object tag");
            if (tag == TAG_NULL_REFERENCE) {
                break;
            }
            if (tag != TAG_BEGIN_PRIVATE_OBJECT) {
                throw new NettraceFormatException(at, "expected an object (tag 5) or the end of the stream (tag 1), found tag " + tag);
            }
            String type = typeName(c);
            if (info == null && !type.equals("Trace")) {
                throw new NettraceFormatException(at, "the first object is " + type + ", not Trace");
            }
            switch (type) {
                case "Trace" -> {
                    if (info != null) {
                        throw new NettraceFormatException(at, "a second Trace object");
                    }
                    info = trace(c);
                }
                case "EventBlock" -> block(c, false);
                case "MetadataBlock" -> block(c, true);
                case "StackBlock", "SPBlock" -> skipBlock(c, type);
                default -> throw new NettraceFormatException(at, "unknown object type \"" + type + "\"");
            }
            endObject(c, type);
        }
        long end = c.offset();
        return new Nettrace(info, sorted(), end);
    }

    private List<NettraceEvent> sorted() throws NettraceFormatException {
        List<NettraceEvent> out = new ArrayList<>(events.size());
        for (Pending p : events) {
            EventMetadata m = metadata.get(p.metadataId);
            if (m == null) {
                throw new NettraceFormatException(p.offset, "the event's metadata id " + p.metadataId + " is defined by no metadata record of the stream");
            }
            out.add(new NettraceEvent(m, p.timestamp, p.threadId, p.captureThreadId, p.sequence, p.offset, p.payload));
        }
        // stable: equal timestamps keep stream order
        out.sort((a, b) -> Long.compareUnsigned(a.timestamp(), b.timestamp()));
        return out;
    }

    private String typeName(StreamCursor c) throws IOException {
        long at = c.offset();
        if (c.u8("the type's begin tag") != TAG_BEGIN_PRIVATE_OBJECT) {
            throw new NettraceFormatException(at, "expected the type object's begin tag (5)");
        }
        if (c.u8("the type's type tag") != TAG_NULL_REFERENCE) {
            throw new NettraceFormatException(at + 1, "expected the type's null type (tag 1)");
        }
        int version = c.i32("the type's version");
        int minReader = c.i32("the type's minimum reader version");
        String name = string(c, "the type name");
        endObject(c, "the type of " + name);
        int expected = name.equals("Trace") ? 4 : 2;
        if (minReader > expected) {
            throw new NettraceFormatException(at, name + " version " + version + " needs a reader of version " + minReader + "; this reader knows " + expected);
        }
        return name;
    }

    private static void endObject(StreamCursor c, String what) throws IOException {
        long at = c.offset();
        int tag = c.u8("the end of " + what);
        if (tag != TAG_END_OBJECT) {
            throw new NettraceFormatException(at, "expected the end tag (6) of " + what + ", found " + tag);
        }
    }

    private String string(StreamCursor c, String what) throws IOException {
        long at = c.offset();
        int n = c.i32("the length of " + what);
        if (n < 0 || n > limits.maxStringChars()) {
            throw new NettraceFormatException(at, what + " has length " + n + " (allowed 0.." + limits.maxStringChars() + ")");
        }
        return new String(c.bytes(n, what), StandardCharsets.UTF_8);
    }

    private static TraceInfo trace(StreamCursor c) throws IOException {
        c.skip(16, "the Trace object's SYSTEMTIME");
        long syncQpc = c.i64("SyncTimeQPC");
        long frequency = c.i64("QPCFrequency");
        int pointerSize = c.i32("PointerSize");
        int pid = c.i32("ProcessId");
        int processors = c.i32("NumberOfProcessors");
        c.i32("ExpectedCPUSamplingRate");
        return new TraceInfo(syncQpc, frequency, pointerSize, pid, processors);
    }

    private byte[] blockBytes(StreamCursor c, String type) throws IOException {
        long at = c.offset();
        int size = c.i32("the size of a " + type);
        if (size < 0 || size > limits.maxBlockBytes()) {
            throw new NettraceFormatException(at, type + " of " + Integer.toUnsignedString(size) + " bytes (allowed 0.." + limits.maxBlockBytes() + ")");
        }
        long pad = (4 - (c.offset() & 3)) & 3;
        c.skip(pad, "the alignment padding of a " + type);
        return c.bytes(size, "a " + type);
    }

    private void skipBlock(StreamCursor c, String type) throws IOException {
        blockBytes(c, type);
    }

    private void block(StreamCursor c, boolean isMetadata) throws IOException {
        String type = isMetadata ? "MetadataBlock" : "EventBlock";
        byte[] b0 = blockBytes(c, type);
        long base = c.offset() - b0.length;
        BlockCursor b = new BlockCursor(b0, base, type);
        int headerSize = b.u16("the block header's size");
        int flags = b.u16("the block header's flags");
        if (headerSize < 20 || headerSize > b0.length) {
            throw new NettraceFormatException(base, type + " header of " + headerSize + " bytes (at least 20, at most the block's " + b0.length + ")");
        }
        b.position(headerSize);
        boolean compressed = (flags & 1) != 0;
        // the previous header, all zero at the start of a block
        int metadataId = 0;
        int sequence = 0;
        long captureThread = 0;
        long thread = 0;
        long timestamp = 0;
        int payloadSize = 0;
        while (b.remaining() > 0) {
            long at = b.offset();
            if (++records > limits.maxEvents()) {
                throw new NettraceFormatException(at, "more than " + limits.maxEvents() + " events");
            }
            if (compressed) {
                int f = b.u8("an event's header flags");
                if ((f & FLAG_METADATA_ID) != 0) {
                    metadataId = b.varInt("the metadata id");
                }
                if ((f & FLAG_CAPTURE_THREAD_AND_SEQUENCE) != 0) {
                    sequence += b.varInt("the sequence number");
                    captureThread = b.varLong("the capture thread");
                    b.varInt("the processor number");
                }
                if (metadataId != 0) {
                    sequence++;
                }
                if ((f & FLAG_THREAD_ID) != 0) {
                    thread = b.varLong("the thread id");
                }
                if ((f & FLAG_STACK_ID) != 0) {
                    b.varInt("the stack id");
                }
                timestamp += b.varLong("the timestamp");
                if ((f & FLAG_ACTIVITY_ID) != 0) {
                    b.skip(16, "the activity id");
                }
                if ((f & FLAG_RELATED_ACTIVITY_ID) != 0) {
                    b.skip(16, "the related activity id");
                }
                if ((f & FLAG_DATA_LENGTH) != 0) {
                    payloadSize = b.varInt("the payload size");
                }
            } else {
                int eventSize = b.i32("the event's size");
                long end = b.position() + (long) eventSize;
                metadataId = b.i32("the metadata id") & 0x7fffffff;
                sequence = b.i32("the sequence number");
                thread = b.i64("the thread id");
                captureThread = b.i64("the capture thread");
                b.i32("the processor number");
                b.i32("the stack id");
                timestamp = b.i64("the timestamp");
                b.skip(32, "the activity ids");
                payloadSize = b.i32("the payload size");
                if (eventSize < 0 || end > b0.length || b.position() + (long) payloadSize > end) {
                    throw new NettraceFormatException(at, "event of " + eventSize + " bytes with a payload of " + payloadSize
                            + " does not fit its " + type + " (" + b.remaining() + " bytes left)");
                }
            }
            if (payloadSize < 0 || payloadSize > b.remaining()) {
                throw new NettraceFormatException(at, "event payload of " + Integer.toUnsignedString(payloadSize) + " bytes, but only "
                        + b.remaining() + " are left in its " + type);
            }
            byte[] payload = b.bytes(payloadSize, "the event payload");
            if (!compressed) {
                b.position((int) ((b.position() + 3) & ~3L));
                if (b.position() > b0.length) {
                    throw new NettraceFormatException(b.offset(), "event padding runs past its " + type);
                }
            }
            if (isMetadata) {
                EventMetadata m = metadataRecord(payload, at);
                if (metadata.putIfAbsent(m.id(), m) != null) {
                    throw new NettraceFormatException(at, "metadata id " + m.id() + " defined twice");
                }
            } else {
                if (metadataId == 0) {
                    throw new NettraceFormatException(at, "an event of an EventBlock with metadata id 0");
                }
                events.add(new Pending(metadataId, timestamp, thread, captureThread, sequence, at, payload));
                if (sink != null) {
                    sink.event(metadata.get(metadataId), timestamp, payload);
                }
            }
        }
    }

    private EventMetadata metadataRecord(byte[] payload, long at) throws NettraceFormatException {
        PayloadReader p = new PayloadReader(payload, at, limits);
        try {
            int id = p.i32();
            String provider = p.utf16();
            int eventId = p.i32();
            String name = p.utf16();
            long keywords = p.i64();
            int version = p.i32();
            int level = p.i32();
            if (id <= 0) {
                throw new NettraceFormatException(at, "metadata record with id " + id);
            }
            return new EventMetadata(id, provider, eventId, name, keywords, version, level);
        } catch (PayloadException e) {
            throw new NettraceFormatException(at, "metadata record: " + e.getMessage());
        }
    }

    /** Reads within one block's bytes; offsets in messages are the stream's. */
    private static final class BlockCursor {
        private final byte[] b;
        private final long base;
        private final String type;
        private int pos;

        BlockCursor(byte[] b, long base, String type) {
            this.b = b;
            this.base = base;
            this.type = type;
        }

        int position() {
            return pos;
        }

        void position(int p) {
            pos = p;
        }

        long offset() {
            return base + pos;
        }

        int remaining() {
            return b.length - pos;
        }

        private void need(int n, String what) throws NettraceFormatException {
            if (n > remaining()) {
                throw new NettraceFormatException(offset(), what + " (" + n + " bytes) runs past the end of its " + type + " (" + remaining() + " bytes left)");
            }
        }

        int u8(String what) throws NettraceFormatException {
            need(1, what);
            return b[pos++] & 0xff;
        }

        int u16(String what) throws NettraceFormatException {
            need(2, what);
            int v = (b[pos] & 0xff) | (b[pos + 1] & 0xff) << 8;
            pos += 2;
            return v;
        }

        int i32(String what) throws NettraceFormatException {
            need(4, what);
            int v = (b[pos] & 0xff) | (b[pos + 1] & 0xff) << 8 | (b[pos + 2] & 0xff) << 16 | (b[pos + 3] & 0xff) << 24;
            pos += 4;
            return v;
        }

        long i64(String what) throws NettraceFormatException {
            need(8, what);
            long v = 0;
            for (int i = 7; i >= 0; i--) {
                v = v << 8 | (b[pos + i] & 0xff);
            }
            pos += 8;
            return v;
        }

        void skip(int n, String what) throws NettraceFormatException {
            need(n, what);
            pos += n;
        }

        byte[] bytes(int n, String what) throws NettraceFormatException {
            need(n, what);
            byte[] out = Arrays.copyOfRange(b, pos, pos + n);
            pos += n;
            return out;
        }

        int varInt(String what) throws NettraceFormatException {
            long v = varLong(what, 5);
            return (int) v;
        }

        long varLong(String what) throws NettraceFormatException {
            return varLong(what, 10);
        }

        private long varLong(String what, int maxBytes) throws NettraceFormatException {
            long at = offset();
            long v = 0;
            for (int i = 0; i < maxBytes; i++) {
                int x = u8(what);
                v |= (long) (x & 0x7f) << (7 * i);
                if ((x & 0x80) == 0) {
                    return v;
                }
            }
            throw new NettraceFormatException(at, what + ": a variable-length integer longer than " + maxBytes + " bytes");
        }
    }
}
