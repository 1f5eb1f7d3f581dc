package io.clrheap.walker.source.minidump;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds small minidumps for the reader's tests, written here from the format's tables (docs/reference/dump-formats.md section 3)
 * and sharing no code with the reader or with clrheap's generator. Streams are laid out in the order they are
 * added; {@link #streamOffset} tells where each one's data went, for tests that patch them.
 */
final class TestMinidumpWriter {

    private record Range(long start, byte[] bytes) {
    }

    private record Module(long base, int size, String name, int timeDateStamp) {
    }

    private record Thread(int id, long teb, long stackStart, int stackSize, long rip, long rsp) {
    }

    private int architecture = 9;
    private final List<Range> memory64 = new ArrayList<>();
    private final List<Range> memory32 = new ArrayList<>();
    private final List<Module> modules = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private Long pid;
    private byte[] typeNames;
    private final Map<Integer, Long> streamOffsets = new LinkedHashMap<>();
    private boolean systemInfo = true;

    TestMinidumpWriter architecture(int value) {
        architecture = value;
        return this;
    }

    TestMinidumpWriter withoutSystemInfo() {
        systemInfo = false;
        return this;
    }

    TestMinidumpWriter memory64(long start, byte[] bytes) {
        memory64.add(new Range(start, bytes));
        return this;
    }

    TestMinidumpWriter memory32(long start, byte[] bytes) {
        memory32.add(new Range(start, bytes));
        return this;
    }

    TestMinidumpWriter module(long base, int size, String name, int timeDateStamp) {
        modules.add(new Module(base, size, name, timeDateStamp));
        return this;
    }

    TestMinidumpWriter thread(int id, long teb, long stackStart, int stackSize, long rip, long rsp) {
        threads.add(new Thread(id, teb, stackStart, stackSize, rip, rsp));
        return this;
    }

    TestMinidumpWriter processId(long value) {
        pid = value;
        return this;
    }

    TestMinidumpWriter typeNames(String text) {
        typeNames = text.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    /** A byte pattern that tells offsets apart: byte i is (i * 7 + seed). */
    static byte[] pattern(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * 7 + seed);
        }
        return b;
    }

    /** Where the data of the stream of {@code type} starts, after {@link #build()}. */
    long streamOffset(int type) {
        return streamOffsets.get(type);
    }

    static final int DIRECTORY = 32;

    byte[] build() {
        int count = (systemInfo ? 1 : 0) + (threads.isEmpty() ? 0 : 1) + (modules.isEmpty() ? 0 : 1) + (memory32.isEmpty() ? 0 : 1)
                + (pid == null ? 0 : 1) + (typeNames == null ? 0 : 1) + (memory64.isEmpty() ? 0 : 1);
        long at = DIRECTORY + 12L * count;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        // streams in the order added, their counted data after them (names, contexts, stacks, memory32 bytes), memory64 bytes last; the
        // extra data (names, contexts, memory32 bytes) goes after the fixed streams; memory64 bytes last of all
        List<Object[]> directory = new ArrayList<>();
        ByteBuffer extra = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        long fixedSize = 0;
        List<Object[]> streams = new ArrayList<>();
        if (systemInfo) {
            streams.add(new Object[] {7, 56});
        }
        if (!threads.isEmpty()) {
            streams.add(new Object[] {3, 4 + 48 * threads.size()});
        }
        if (!modules.isEmpty()) {
            streams.add(new Object[] {4, 4 + 108 * modules.size()});
        }
        if (!memory32.isEmpty()) {
            streams.add(new Object[] {5, 4 + 16 * memory32.size()});
        }
        if (pid != null) {
            streams.add(new Object[] {15, 24});
        }
        if (typeNames != null) {
            streams.add(new Object[] {0x636c7268, typeNames.length});
        }
        if (!memory64.isEmpty()) {
            streams.add(new Object[] {9, 16 + 16 * memory64.size()});
        }
        for (Object[] s : streams) {
            streamOffsets.put((Integer) s[0], at + fixedSize);
            fixedSize += (Integer) s[1];
        }
        long extraStart = at + fixedSize;
        ByteBuffer fixed = ByteBuffer.allocate((int) fixedSize).order(ByteOrder.LITTLE_ENDIAN);
        // extra data first, to know where memory64's bytes start
        Map<Object, Long> extraOffsets = new LinkedHashMap<>();
        for (Module m : modules) {
            extraOffsets.put(m, extraStart + extra.position());
            byte[] name = m.name().getBytes(StandardCharsets.UTF_16LE);
            extra.putInt(name.length).put(name).putShort((short) 0);
        }
        for (Thread t : threads) {
            extraOffsets.put(t, extraStart + extra.position());
            byte[] context = new byte[0x4d0];
            ByteBuffer c = ByteBuffer.wrap(context).order(ByteOrder.LITTLE_ENDIAN);
            c.putInt(0x30, 0x10000b).putLong(0x98, t.rsp()).putLong(0xf8, t.rip());
            c.putLong(0x90, 0x1234).putLong(0xf0, 0xf15); // Rbx, R15: the integer registers' order, checked by MinidumpTest
            extra.put(context);
            extraOffsets.put(t.id() + ":stack", extraStart + extra.position());
            extra.put(new byte[t.stackSize()]);
        }
        for (Range r : memory32) {
            extraOffsets.put(r, extraStart + extra.position());
            extra.put(r.bytes());
        }
        long memory64Bytes = extraStart + extra.position();

        for (Object[] s : streams) {
            int type = (Integer) s[0];
            int offset = (int) (streamOffsets.get(type) - at);
            fixed.position(offset);
            switch (type) {
                case 7 -> fixed.putShort((short) architecture);
                case 3 -> {
                    fixed.putInt(threads.size());
                    for (Thread t : threads) {
                        fixed.putInt(t.id()).putInt(0).putInt(0x20).putInt(0).putLong(t.teb())
                                .putLong(t.stackStart()).putInt(t.stackSize()).putInt((int) (long) extraOffsets.get(t.id() + ":stack"))
                                .putInt(0x4d0).putInt((int) (long) extraOffsets.get(t));
                    }
                }
                case 4 -> {
                    fixed.putInt(modules.size());
                    for (Module m : modules) {
                        int start = fixed.position();
                        fixed.putLong(m.base()).putInt(m.size()).putInt(0).putInt(m.timeDateStamp()).putInt((int) (long) extraOffsets.get(m));
                        fixed.position(start + 108);
                    }
                }
                case 5 -> {
                    fixed.putInt(memory32.size());
                    for (Range r : memory32) {
                        fixed.putLong(r.start()).putInt(r.bytes().length).putInt((int) (long) extraOffsets.get(r));
                    }
                }
                case 15 -> fixed.putInt(24).putInt(1).putInt((int) (long) pid);
                case 0x636c7268 -> fixed.put(typeNames);
                case 9 -> {
                    fixed.putLong(memory64.size()).putLong(memory64Bytes);
                    for (Range r : memory64) {
                        fixed.putLong(r.start()).putLong(r.bytes().length);
                    }
                }
                default -> throw new IllegalStateException();
            }
            directory.add(new Object[] {type, s[1], streamOffsets.get(type)});
        }
        ByteBuffer header = ByteBuffer.allocate((int) at).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(0x504d444d).putInt(0xa793).putInt(count).putInt(DIRECTORY).putInt(0).putInt(0).putLong(2);
        for (Object[] d : directory) {
            header.putInt((Integer) d[0]).putInt((Integer) d[1]).putInt((int) (long) (Long) d[2]);
        }
        out.writeBytes(header.array());
        out.writeBytes(fixed.array());
        out.write(extra.array(), 0, extra.position());
        for (Range r : memory64) {
            out.writeBytes(r.bytes());
        }
        return out.toByteArray();
    }
}
