package io.clrheap.walker.source.elf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes small ELF cores for tests, independently of the reader (its own offsets, from glibc {@code <elf.h>} and
 * linux fs/binfmt_elf.c): ELF header, one PT_NOTE, the PT_LOADs in the order added, the notes, then each load's
 * bytes. Tests patch the result to make it corrupt.
 */
public final class TestCoreWriter {

    public static final int EHDR_SIZE = 64;
    public static final int PHDR_SIZE = 56;
    /** Offset of e_phnum in the ELF header. */
    public static final int E_PHNUM = 56;
    /** Offset of e_phoff in the ELF header. */
    public static final int E_PHOFF = 32;

    private record Load(long vaddr, long memsz, byte[] bytes, int flags) {
    }

    private final List<Load> loads = new ArrayList<>();
    private final ByteArrayOutputStream notes = new ByteArrayOutputStream();
    private long dataStart;

    /** A PT_LOAD at {@code vaddr} of {@code memsz} bytes whose first {@code bytes.length} are in the file. */
    public TestCoreWriter load(long vaddr, long memsz, byte[] bytes, int flags) {
        loads.add(new Load(vaddr, memsz, bytes, flags));
        return this;
    }

    /** A PT_LOAD whose bytes are all in the file, readable and writable. */
    public TestCoreWriter load(long vaddr, byte[] bytes) {
        return load(vaddr, bytes.length, bytes, 6);
    }

    /** Puts the loads' bytes from this file offset on (e.g. past 2 GiB; the file is written sparse). */
    public TestCoreWriter dataStart(long offset) {
        this.dataStart = offset;
        return this;
    }

    /** A note: namesz (with NUL), descsz, type, name padded to 4, desc padded to 4. */
    public TestCoreWriter note(String owner, int type, byte[] desc) {
        byte[] name = (owner + "\0").getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = le(12 + pad4(name.length) + pad4(desc.length));
        b.putInt(name.length).putInt(desc.length).putInt(type);
        b.put(name).position(12 + pad4(name.length));
        b.put(desc);
        notes.writeBytes(b.array());
        return this;
    }

    /** An NT_FILE note; each entry is {start, end, byte offset, path} and the offset must be a page multiple. */
    public TestCoreWriter ntFile(long pageSize, List<MappedFile> files) {
        ByteArrayOutputStream paths = new ByteArrayOutputStream();
        ByteBuffer head = le(16 + 24 * files.size());
        head.putLong(files.size()).putLong(pageSize);
        for (MappedFile f : files) {
            head.putLong(f.start()).putLong(f.end()).putLong(f.fileOffset() / pageSize);
            paths.writeBytes(f.path().getBytes(StandardCharsets.UTF_8));
            paths.write(0);
        }
        ByteArrayOutputStream desc = new ByteArrayOutputStream();
        desc.writeBytes(head.array());
        desc.writeBytes(paths.toByteArray());
        return note("CORE", 0x46494c45, desc.toByteArray());
    }

    /** An NT_PRSTATUS (336 bytes) with pr_pid = tid at 32 and rip, rsp in pr_reg (at 112, indexes 16 and 19). */
    public TestCoreWriter prstatus(int tid, long rip, long rsp) {
        ByteBuffer b = le(336);
        b.putInt(32, tid);
        b.putInt(40, 4242); // pr_pgrp: the process id in createdump's notes, not the thread
        b.putLong(112 + 16 * 8, rip);
        b.putLong(112 + 19 * 8, rsp);
        b.putLong(112, 0xf15);          // r15, user_regs_struct's first
        b.putLong(112 + 5 * 8, 0xb0b);  // rbx
        b.putLong(112 + 10 * 8, 0xa0a); // rax
        return note("CORE", 1, b.array());
    }

    /** An NT_AUXV of the given {type, value} pairs, then AT_NULL. */
    public TestCoreWriter auxv(long... pairs) {
        ByteBuffer b = le(8 * pairs.length + 16);
        for (long v : pairs) {
            b.putLong(v);
        }
        return note("CORE", 6, b.array());
    }

    /** File offset of the first note. */
    public int notesOffset() {
        return EHDR_SIZE + PHDR_SIZE * (1 + loads.size());
    }

    /** File offset of the program header of load {@code i} (in the order added). */
    public int loadHeaderOffset(int i) {
        return EHDR_SIZE + PHDR_SIZE * (1 + i);
    }

    private byte[] headers() {
        byte[] noteBytes = notes.toByteArray();
        ByteBuffer b = le(notesOffset() + noteBytes.length);
        b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 3}); // ELFCLASS64, ELFDATA2LSB, EV_CURRENT, ELFOSABI_LINUX
        b.putShort(16, (short) 4);        // ET_CORE
        b.putShort(18, (short) 62);       // EM_X86_64
        b.putInt(20, 1);                  // EV_CURRENT
        b.putLong(E_PHOFF, EHDR_SIZE);
        b.putShort(52, (short) EHDR_SIZE);
        b.putShort(54, (short) PHDR_SIZE);
        b.putShort(E_PHNUM, (short) (1 + loads.size()));
        int ph = EHDR_SIZE;
        b.putInt(ph, 4);                  // PT_NOTE
        b.putLong(ph + 8, notesOffset());
        b.putLong(ph + 32, noteBytes.length);
        long data = firstDataOffset(notesOffset() + noteBytes.length);
        for (Load load : loads) {
            ph += PHDR_SIZE;
            b.putInt(ph, 1);              // PT_LOAD
            b.putInt(ph + 4, load.flags());
            b.putLong(ph + 8, data);
            b.putLong(ph + 16, load.vaddr());
            b.putLong(ph + 32, load.bytes().length);
            b.putLong(ph + 40, load.memsz());
            b.putLong(ph + 48, 0x1000);
            data += load.bytes().length;
        }
        b.put(notesOffset(), noteBytes);
        return b.array();
    }

    private long firstDataOffset(long headersEnd) {
        return Math.max(dataStart, (headersEnd + 15) & ~15L);
    }

    /** The whole core in a byte array (when it is small). */
    public byte[] build() {
        byte[] headers = headers();
        long data = firstDataOffset(headers.length);
        long total = data + loads.stream().mapToLong(l -> l.bytes().length).sum();
        byte[] out = new byte[Math.toIntExact(total)];
        System.arraycopy(headers, 0, out, 0, headers.length);
        for (Load load : loads) {
            System.arraycopy(load.bytes(), 0, out, (int) data, load.bytes().length);
            data += load.bytes().length;
        }
        return out;
    }

    /** Writes the core to {@code file}, leaving holes (sparse) between the headers and a far {@link #dataStart}. */
    public Path write(Path file) throws IOException {
        byte[] headers = headers();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(ByteBuffer.wrap(headers), 0);
            long data = firstDataOffset(headers.length);
            for (Load load : loads) {
                channel.write(ByteBuffer.wrap(load.bytes()), data);
                data += load.bytes().length;
            }
        }
        return file;
    }

    /** {@code n} bytes 0, 1, 2, ... plus {@code seed}. */
    public static byte[] pattern(int n, int seed) {
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = (byte) (i + seed);
        }
        return bytes;
    }

    private static int pad4(int n) {
        return (n + 3) & ~3;
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }
}
