package io.clrheap.capture.nettrace;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A test writer of nettrace V5 streams, written from the format as docs/ipc-protocol.md section 7 gives it, independently of
 * the reader: the header, the Trace object, metadata blocks, event blocks with compressed or uncompressed headers
 * (events written in the order given, so a test can put per-thread buffers out of time order), stack and sequence
 * point blocks, and the end tag.
 */
public final class NettraceWriter {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** An event to write: its metadata id, thread, timestamp and payload. */
    public record Event(int metadataId, long threadId, long timestamp, byte[] payload) {
    }

    public NettraceWriter() {
        out.writeBytes("Nettrace".getBytes(StandardCharsets.US_ASCII));
        string("!FastSerialization.1");
        beginObject("Trace", 4, 4);
        for (int i = 0; i < 8; i++) {
            u16(i + 1);
        }
        i64(1000); // SyncTimeQPC
        i64(10_000_000); // QPCFrequency
        i32(8);
        i32(4242);
        i32(2);
        i32(0);
        out.write(6);
    }

    public int size() {
        return out.size();
    }

    public byte[] finish() {
        out.write(1);
        return out.toByteArray();
    }

    /** Bytes as they are, for hostile streams. */
    public NettraceWriter raw(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    public NettraceWriter metadataBlock(int id, String provider, int eventId, String name, int version) {
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        le(p, id, 4);
        utf16(p, provider);
        le(p, eventId, 4);
        utf16(p, name);
        le(p, 0, 8); // keywords
        le(p, version, 4);
        le(p, 5, 4); // level
        le(p, 0, 4); // V1 field count
        return block("MetadataBlock", true, List.of(new Event(0, 0, 0, p.toByteArray())));
    }

    public NettraceWriter eventBlock(boolean compressed, List<Event> events) {
        return block("EventBlock", compressed, events);
    }

    private NettraceWriter block(String type, boolean compressed, List<Event> events) {
        ByteArrayOutputStream c = new ByteArrayOutputStream();
        le(c, 20, 2); // header size
        le(c, compressed ? 1 : 0, 2);
        le(c, events.stream().mapToLong(Event::timestamp).min().orElse(0), 8);
        le(c, events.stream().mapToLong(Event::timestamp).max().orElse(0), 8);
        int metadata = 0;
        long thread = 0;
        long timestamp = 0;
        int payloadSize = 0;
        int sequence = 0;
        List<Long> captureThreads = new ArrayList<>();
        for (Event e : events) {
            if (compressed) {
                int flags = 0;
                boolean newThread = e.threadId() != thread || captureThreads.isEmpty();
                if (e.metadataId() != metadata) {
                    flags |= 1;
                }
                if (newThread && e.metadataId() != 0) {
                    flags |= 2 | 4;
                }
                if (e.payload().length != payloadSize) {
                    flags |= 128;
                }
                c.write(flags);
                if ((flags & 1) != 0) {
                    varint(c, e.metadataId());
                }
                if ((flags & 2) != 0) {
                    varint(c, 0); // sequence delta
                    varint(c, e.threadId());
                    varint(c, 0); // processor
                    captureThreads.add(e.threadId());
                }
                if ((flags & 4) != 0) {
                    varint(c, e.threadId());
                }
                varint(c, e.timestamp() - timestamp);
                if ((flags & 128) != 0) {
                    varint(c, e.payload().length);
                }
                c.writeBytes(e.payload());
            } else {
                // uncompressed: 4-byte aligned to the stream, which the block start is
                int size = 4 + 4 + 8 + 8 + 4 + 4 + 8 + 32 + 4 + e.payload().length;
                le(c, size, 4);
                le(c, e.metadataId(), 4);
                le(c, ++sequence, 4);
                le(c, e.threadId(), 8);
                le(c, e.threadId(), 8);
                le(c, 0, 4);
                le(c, 0, 4);
                le(c, e.timestamp(), 8);
                c.writeBytes(new byte[32]);
                le(c, e.payload().length, 4);
                c.writeBytes(e.payload());
                while (c.size() % 4 != 0) {
                    c.write(0);
                }
            }
            metadata = e.metadataId();
            thread = e.threadId();
            timestamp = e.timestamp();
            payloadSize = e.payload().length;
        }
        return rawBlock(type, c.toByteArray());
    }

    /** A block object around given content (size, alignment padding, content). */
    public NettraceWriter rawBlock(String type, byte[] content) {
        beginObject(type, 2, 2);
        i32(content.length);
        while (out.size() % 4 != 0) {
            out.write(0);
        }
        out.writeBytes(content);
        out.write(6);
        return this;
    }

    public NettraceWriter stackBlock() {
        ByteArrayOutputStream c = new ByteArrayOutputStream();
        le(c, 1, 4);
        le(c, 1, 4);
        le(c, 16, 4);
        le(c, 0x1234, 8);
        le(c, 0x5678, 8);
        return rawBlock("StackBlock", c.toByteArray());
    }

    public NettraceWriter sequencePointBlock(long timestamp) {
        ByteArrayOutputStream c = new ByteArrayOutputStream();
        le(c, timestamp, 8);
        le(c, 0, 4);
        return rawBlock("SPBlock", c.toByteArray());
    }

    private void beginObject(String type, int version, int minReader) {
        out.write(5);
        out.write(5);
        out.write(1);
        i32(version);
        i32(minReader);
        string(type);
        out.write(6);
    }

    private void string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        i32(b.length);
        out.writeBytes(b);
    }

    private void u16(int v) {
        le(out, v, 2);
    }

    private void i32(int v) {
        le(out, v, 4);
    }

    private void i64(long v) {
        le(out, v, 8);
    }

    static void le(ByteArrayOutputStream o, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            o.write((int) (v >>> (8 * i)));
        }
    }

    static void utf16(ByteArrayOutputStream o, String s) {
        o.writeBytes((s + "\0").getBytes(StandardCharsets.UTF_16LE));
    }

    static void varint(ByteArrayOutputStream o, long v) {
        do {
            int b = (int) (v & 0x7f);
            v >>>= 7;
            o.write(v != 0 ? b | 0x80 : b);
        } while (v != 0);
    }

    /** A little-endian payload builder. */
    public static final class Payload {
        private final ByteArrayOutputStream b = new ByteArrayOutputStream();

        public Payload u8(int v) {
            b.write(v);
            return this;
        }

        public Payload u16(int v) {
            le(b, v, 2);
            return this;
        }

        public Payload u32(long v) {
            le(b, v, 4);
            return this;
        }

        public Payload u64(long v) {
            le(b, v, 8);
            return this;
        }

        public Payload utf16(String s) {
            NettraceWriter.utf16(b, s);
            return this;
        }

        public byte[] bytes() {
            return b.toByteArray();
        }
    }
}
