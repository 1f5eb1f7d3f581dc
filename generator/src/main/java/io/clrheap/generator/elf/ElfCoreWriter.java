package io.clrheap.generator.elf;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.truth.CpuRegister;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.truth.ThreadStack;
import io.clrheap.emulator.module.ModuleMapping;
import io.clrheap.memory.MemoryRange;
import io.clrheap.walker.source.PendingFile;
import io.clrheap.walker.source.TypeNameSidecar;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Writes an emulated process as a Linux x64 ELF core, laid out as createdump lays one out (docs/reference/dump-formats.md 2.1):
 * the ELF header ({@code ET_CORE}, {@code EM_X86_64}, {@code EI_OSABI} Linux), {@code PT_NOTE} first, then one
 * {@code PT_LOAD} per range of memory the process holds (untouched memory is not written; a range is split where the
 * runtime module's mappings change permissions), the notes ({@code NT_PRPSINFO}, {@code NT_AUXV}, one
 * {@code NT_FILE}, per thread {@code NT_PRSTATUS} with the emulated thread's registers and {@code NT_FPREGSET}, and
 * clrheap's type-name note), zero
 * padding to a page, then the memory, streamed. The same process gives the same bytes.
 */
public final class ElfCoreWriter {

    private static final long PAGE = 4096;
    private static final int EHDR = 64;
    private static final int PHDR = 56;
    /** e_phnum holds at most 0xfffe headers; more take the PN_XNUM scheme (one section header with the count). */
    private static final int PN_XNUM = 0xffff;
    private static final int PT_LOAD = 1;
    private static final int PT_NOTE = 4;
    private static final int PF_X = 1;
    private static final int PF_W = 2;
    private static final int PF_R = 4;
    private static final int NT_PRSTATUS = 1;
    private static final int NT_FPREGSET = 2;
    private static final int NT_PRPSINFO = 3;
    private static final int NT_AUXV = 6;
    private static final int NT_FILE = 0x46494c45;
    /** createdump's diagnostic page (docs/reference/dump-formats.md 2.10): tools recognise a dump written for .NET by it. */
    static final long SPECIAL_DIAG_INFO = 0x00007ffffff10000L;
    private static final String PROCESS_NAME = "dotnet";
    /** ELF_PRARGSZ: the bytes of prpsinfo_t.pr_psargs. */
    private static final int PSARGS = 80;

    /**
     * The general-purpose registers of NT_PRSTATUS's pr_reg, {@code struct user_regs_struct} of the Linux x64 ABI
     * (glibc sys/user.h): r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8, rax, rcx, rdx, rsi, rdi, orig_rax (none
     * here), rip, then cs, eflags, rsp (index 19). Null where the slot is no register of the thread's context.
     */
    private static final CpuRegister[] USER_REGS = {CpuRegister.R15, CpuRegister.R14, CpuRegister.R13, CpuRegister.R12, CpuRegister.RBP,
        CpuRegister.RBX, CpuRegister.R11, CpuRegister.R10, CpuRegister.R9, CpuRegister.R8, CpuRegister.RAX, CpuRegister.RCX, CpuRegister.RDX,
        CpuRegister.RSI, CpuRegister.RDI, null, CpuRegister.RIP, null, null, CpuRegister.RSP};

    /** A PT_LOAD: a range and its permissions; {@code bytes} when the writer supplies them (not process memory). */
    private record Load(long start, long length, int flags, byte[] bytes) {
    }

    private ElfCoreWriter() {
    }

    /** Writes {@code process} to {@code file} (through a temporary file beside it, moved into place at the end). */
    public static void write(EmulatedRuntime process, Path file) throws IOException {
        write(process, file, done -> { });
    }

    /** @param progress receives the bytes of memory written so far */
    public static void write(EmulatedRuntime process, Path file, LongConsumer progress) throws IOException {
        if (process.platform() != io.clrheap.emulator.module.Platform.LINUX) {
            throw new IllegalArgumentException("an ELF core holds a Linux process; " + process.scenario().name() + " was built for "
                    + process.platform() + " (write it as a minidump)");
        }
        List<Load> loads = loads(process);
        byte[] notes = notes(process);
        int phnum = 1 + loads.size();
        boolean xnum = phnum >= PN_XNUM;
        long phoff = EHDR + (xnum ? 64 : 0);
        long notesAt = phoff + (long) PHDR * phnum;
        long dataAt = align(notesAt + notes.length, PAGE);

        ByteBuffer head = ByteBuffer.allocate((int) (notesAt)).order(ByteOrder.LITTLE_ENDIAN);
        head.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 3}); // ELFCLASS64, LSB, EV_CURRENT, ELFOSABI_LINUX (lldb needs it)
        head.position(16);
        head.putShort((short) 4).putShort((short) 62).putInt(1).putLong(0).putLong(phoff).putLong(xnum ? EHDR : 0).putInt(0)
                .putShort((short) EHDR).putShort((short) PHDR).putShort((short) (xnum ? PN_XNUM : phnum))
                .putShort((short) (xnum ? 64 : 0)).putShort((short) (xnum ? 1 : 0)).putShort((short) 0);
        if (xnum) {
            // Elf64_Shdr 0: sh_size = 1 and sh_info = the real program header count (gABI, PN_XNUM)
            head.position(EHDR + 32);
            head.putLong(1);
            head.position(EHDR + 44);
            head.putInt(phnum);
        }
        head.position((int) phoff);
        head.putInt(PT_NOTE).putInt(0).putLong(notesAt).putLong(0).putLong(0).putLong(notes.length).putLong(0).putLong(0);
        long offset = dataAt;
        for (Load l : loads) {
            head.putInt(PT_LOAD).putInt(l.flags()).putLong(offset).putLong(l.start()).putLong(0).putLong(l.length()).putLong(l.length())
                    .putLong(PAGE);
            offset += l.length();
        }

        long size = offset;

        // written under a hidden temporary name beside the target and renamed into place when complete: a failed or
        // interrupted run (SIGINT, SIGTERM, a full disk) leaves no core
        try (PendingFile pending = PendingFile.beside(file)) {
            try (RandomAccessFile raf = new RandomAccessFile(pending.path().toFile(), "rw"); FileChannel out = raf.getChannel()) {
                // the file is sized first, all of it a hole (zeros); then only what is not zero is written, so that pages of
                // zeros stay holes: the file is sparse where the file system allows, and reads the same bytes as a dense one
                raf.setLength(size);
                writeFully(out, head.flip(), 0);
                writeFully(out, ByteBuffer.wrap(notes), notesAt);
                SparseOutput data = new SparseOutput(out);
                long at = dataAt;
                long written = 0;
                byte[] buffer = null;
                for (Load l : loads) {
                    if (l.bytes() != null) {
                        data.write(MemorySegment.ofArray(l.bytes()), at);
                        at += l.length();
                        continue;
                    }
                    long end = l.start() + l.length();
                    for (long a = l.start(); a < end; ) {
                        MemorySegment view = process.memory().contiguous(a);
                        long n;
                        if (view != null && view.byteSize() > 0) {
                            n = Math.min(view.byteSize(), end - a);
                            data.write(view.asSlice(0, n), at);
                        } else {
                            // a source without views of its blocks (or memory never written): copied through a buffer
                            if (buffer == null) {
                                buffer = new byte[1 << 16];
                            }
                            n = Math.min(buffer.length, end - a);
                            process.memory().read(a, buffer, 0, (int) n);
                            data.write(MemorySegment.ofArray(buffer).asSlice(0, n), at);
                        }
                        a += n;
                        at += n;
                        written += n;
                        progress.accept(written);
                    }
                }
                data.flush();
            } catch (IOException | RuntimeException e) {
                throw pending.failed(e);
            }
            pending.commit();
        }
    }

    /** Bytes of process memory {@link #write} will write. */
    public static long memoryBytes(EmulatedRuntime process) {
        return process.memory().touchedRanges().stream().mapToLong(MemoryRange::length).sum();
    }

    private static void writeFully(FileChannel out, ByteBuffer b, long position) throws IOException {
        while (b.hasRemaining()) {
            position += out.write(b, position);
        }
    }

    /**
     * Writes data at file positions, leaving out every piece that is all zeros (the file was sized beforehand, so those
     * bytes read as zero already): a whole page of zeros, by file offset, stays a hole. Pieces that are not zero and
     * follow each other in the file are gathered into one write of up to {@link #BATCH} bytes.
     */
    private static final class SparseOutput {
        private static final int BATCH = 1 << 20;
        private static final MemorySegment ZEROS = MemorySegment.ofArray(new byte[(int) PAGE]);
        private final FileChannel out;
        private final ByteBuffer pending = ByteBuffer.allocateDirect(BATCH);
        /** All of {@link #pending}'s bytes (a segment of a buffer starts at the buffer's position: taken at 0). */
        private final MemorySegment pendingBytes = MemorySegment.ofBuffer(pending);
        private long pendingAt;

        SparseOutput(FileChannel out) {
            this.out = out;
        }

        /** Writes {@code data} at {@code position}, zero pages left out. */
        void write(MemorySegment data, long position) throws IOException {
            long size = data.byteSize();
            long done = 0;
            while (done < size) {
                long at = position + done;
                long piece = Math.min(size - done, PAGE - (at & (PAGE - 1))); // up to the next page boundary of the file
                if (MemorySegment.mismatch(data, done, done + piece, ZEROS, 0, piece) >= 0) {
                    if (pending.position() > 0 && (pendingAt + pending.position() != at || pending.remaining() < piece)) {
                        flush();
                    }
                    if (pending.position() == 0) {
                        pendingAt = at;
                    }
                    pendingBytes.asSlice(pending.position(), piece).copyFrom(data.asSlice(done, piece));
                    pending.position(pending.position() + (int) piece);
                }
                done += piece;
            }
        }

        void flush() throws IOException {
            if (pending.position() > 0) {
                writeFully(out, pending.flip(), pendingAt);
                pending.clear();
            }
        }
    }

    /** The process memory in address order, split at the module's mapping boundaries, plus the diagnostic page. */
    private static List<Load> loads(EmulatedRuntime process) {
        List<Load> loads = new ArrayList<>();
        List<ModuleMapping> mappings = process.mappings();
        for (MemoryRange r : process.memory().touchedRanges()) {
            long start = r.start();
            long end = r.start() + r.length();
            while (start < end) {
                long cut = end;
                int flags = PF_R | PF_W;
                for (ModuleMapping m : mappings) {
                    if (start >= m.start() && start < m.end()) {
                        cut = Math.min(cut, m.end());
                        flags = permissions(m.permissions());
                    } else if (m.start() > start && m.start() < cut) {
                        cut = m.start();
                    }
                }
                loads.add(new Load(start, cut - start, flags, null));
                start = cut;
            }
        }
        ByteBuffer diag = ByteBuffer.allocate((int) PAGE).order(ByteOrder.LITTLE_ENDIAN);
        diag.put("DIAGINFOHEADER".getBytes(StandardCharsets.US_ASCII));
        diag.putInt(16, 2); // version 2: the runtime's base follows
        diag.putLong(24, 0);
        diag.putLong(32, mappings.isEmpty() ? 0 : mappings.get(0).start());
        loads.add(new Load(SPECIAL_DIAG_INFO, PAGE, PF_R | PF_W, diag.array()));
        return loads;
    }

    private static int permissions(String perms) {
        return (perms.charAt(0) == 'r' ? PF_R : 0) | (perms.charAt(1) == 'w' ? PF_W : 0) | (perms.charAt(2) == 'x' ? PF_X : 0);
    }

    /** The notes in createdump's order: PRPSINFO, AUXV, FILE, per thread PRSTATUS and FPREGSET; then clrheap's. */
    private static byte[] notes(EmulatedRuntime process) {
        List<GroundTruth.ThreadInfo> threads = process.groundTruth().threads();
        int pid = threads.isEmpty() ? 1 : (int) threads.get(0).osId();
        NoteBuffer notes = new NoteBuffer();

        ByteBuffer prpsinfo = desc(136);
        prpsinfo.put(1, (byte) 'R');
        prpsinfo.putInt(24, pid).putInt(28, 1).putInt(32, pid);
        prpsinfo.put(40, PROCESS_NAME.getBytes(StandardCharsets.US_ASCII));
        byte[] args = (PROCESS_NAME + " " + process.scenario().name() + ".dll").getBytes(StandardCharsets.US_ASCII);
        prpsinfo.put(56, args, 0, Math.min(args.length, PSARGS - 1)); // pr_psargs holds ELF_PRARGSZ (80) bytes with its NUL
        notes.add("CORE", NT_PRPSINFO, prpsinfo.array());

        ByteBuffer auxv = desc(16 * 3);
        auxv.putLong(0, 6).putLong(8, PAGE);  // AT_PAGESZ
        auxv.putLong(16, 7).putLong(24, 0);   // AT_BASE: no interpreter
        notes.add("CORE", NT_AUXV, auxv.array()); // AT_NULL ends it

        List<ModuleMapping> files = process.mappings().stream().filter(m -> !m.path().isEmpty()).toList();
        int pathBytes = files.stream().mapToInt(m -> m.path().getBytes(StandardCharsets.UTF_8).length + 1).sum();
        ByteBuffer file = desc(16 + 24 * files.size() + pathBytes);
        file.putLong(files.size()).putLong(PAGE);
        for (ModuleMapping m : files) {
            file.putLong(m.start()).putLong(m.end()).putLong(m.fileOffset() / PAGE);
        }
        for (ModuleMapping m : files) {
            file.put(m.path().getBytes(StandardCharsets.UTF_8)).put((byte) 0);
        }
        notes.add("CORE", NT_FILE, file.array());

        for (GroundTruth.ThreadInfo t : threads) {
            ThreadStack stack = process.groundTruth().stacks().stream().filter(s -> s.osId() == t.osId()).findFirst()
                    .orElseThrow(() -> new IllegalStateException("thread " + t.osId() + " of the thread store has no stack"));
            ByteBuffer prstatus = desc(336);
            prstatus.putInt(32, (int) t.osId()).putInt(36, 1).putInt(40, pid);
            int reg = 112;
            for (int i = 0; i < USER_REGS.length; i++) {
                if (USER_REGS[i] != null) {
                    prstatus.putLong(reg + 8 * i, stack.register(USER_REGS[i]));
                }
            }
            prstatus.putLong(reg + 8 * 17, 0x33);           // cs
            prstatus.putLong(reg + 8 * 18, 0x246);          // eflags
            prstatus.putLong(reg + 8 * 20, 0x2b);           // ss
            prstatus.putLong(reg + 8 * 21, t.thread());     // fs_base: the thread's block, as TLS would be
            notes.add("CORE", NT_PRSTATUS, prstatus.array());
            ByteBuffer fpregs = desc(512);
            fpregs.putShort(0, (short) 0x37f).putInt(24, 0x1f80).putInt(28, 0xffff); // fcw, mxcsr, mxcsr_mask at reset
            notes.add("CORE", NT_FPREGSET, fpregs.array());
        }
        notes.add(TypeNameSidecar.ELF_NOTE_OWNER, TypeNameSidecar.ELF_NOTE_TYPE, TypeNameSidecar.format(process.typeNames()));
        return notes.bytes();
    }

    private static ByteBuffer desc(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static long align(long v, long a) {
        return (v + a - 1) / a * a;
    }

    /** Note records: namesz, descsz, type, the name with its NUL padded to 4, the desc padded to 4. */
    private static final class NoteBuffer {
        private final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();

        void add(String owner, int type, byte[] desc) {
            byte[] name = (owner + "\0").getBytes(StandardCharsets.US_ASCII);
            ByteBuffer b = ByteBuffer.allocate(12 + (int) align(name.length, 4) + (int) align(desc.length, 4)).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(name.length).putInt(desc.length).putInt(type).put(name);
            b.position(12 + (int) align(name.length, 4));
            b.put(desc);
            out.writeBytes(b.array());
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
