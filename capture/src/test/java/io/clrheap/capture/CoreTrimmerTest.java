package io.clrheap.capture;

import io.clrheap.walker.Dumps;
import io.clrheap.walker.DumpSession;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.answer.AnswerKeyCheck;
import io.clrheap.generator.answer.AnswerKeyWriter;
import io.clrheap.generator.elf.ElfCoreWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoreTrimmerTest {

    @TempDir
    Path dir;

    private record Segment(long vaddr, int flags, byte[] bytes) {
    }

    private record Load(int flags, long offset, long vaddr, long filesz, long memsz) {
    }

    private static List<Load> loads(byte[] core) {
        ByteBuffer b = ByteBuffer.wrap(core).order(ByteOrder.LITTLE_ENDIAN);
        long phoff = b.getLong(0x20);
        int phnum = Short.toUnsignedInt(b.getShort(0x38));
        List<Load> out = new ArrayList<>();
        for (int i = 0; i < phnum; i++) {
            int o = (int) (phoff + 56L * i);
            if (b.getInt(o) == CoreTrimmer.PT_LOAD) {
                out.add(new Load(b.getInt(o + 4), b.getLong(o + 8), b.getLong(o + 16), b.getLong(o + 32), b.getLong(o + 40)));
            }
        }
        return out;
    }

    private static byte[] bytesAt(byte[] core, Load l) {
        return Arrays.copyOfRange(core, (int) l.offset(), (int) (l.offset() + l.filesz()));
    }

    @Test
    void theTrimmedEmulatorCoreKeepsItsHeadersAndWalksEqualToTheAnswerKey() throws Exception {
        EmulatedRuntime process = new RuntimeBuilder().build(Scenarios.named("default").orElseThrow());
        Path core = dir.resolve("default.core");
        ElfCoreWriter.write(process, core);
        Path answer = dir.resolve("default.answer");
        AnswerKeyWriter.write(process, answer);
        Path trimmed = dir.resolve("trimmed.core");
        CoreTrimmer.Result r;
        try (OutputStream out = Files.newOutputStream(trimmed)) {
            r = CoreTrimmer.trim(core, out);
        }
        byte[] before = Files.readAllBytes(core);
        byte[] after = Files.readAllBytes(trimmed);
        List<Load> in = loads(before);
        List<Load> out = loads(after);
        assertThat(out).hasSameSizeAs(in);
        assertThat(r.runtimeModule()).endsWith("libcoreclr.so");
        assertThat(r.droppedSegments()).as("the runtime module's code").isPositive();
        for (int i = 0; i < in.size(); i++) {
            Load a = in.get(i);
            Load b = out.get(i);
            assertThat(b.vaddr()).isEqualTo(a.vaddr());
            assertThat(b.memsz()).isEqualTo(a.memsz());
            assertThat(b.flags()).isEqualTo(a.flags());
            // the assemblies' images are read-only mappings of files other than the runtime module: dropped, as a real
            // trimmed core drops them (the type names then come from the core's name note)
            boolean assemblyImage = process.mappings().stream().anyMatch(m -> !m.path().isEmpty()
                    && !m.path().equals(process.module().path()) && m.start() <= a.vaddr() && a.vaddr() < m.end());
            if ((a.flags() & CoreTrimmer.PF_X) != 0 && (a.flags() & CoreTrimmer.PF_W) == 0 || assemblyImage) {
                assertThat(b.filesz()).as("executable mapping or assembly image at 0x%x dropped", a.vaddr()).isZero();
            } else {
                assertThat(bytesAt(after, b)).as("mapping at 0x%x kept as it was", a.vaddr()).isEqualTo(bytesAt(before, a));
                assertThat(b.offset() % 0x1000).isEqualTo(b.vaddr() % 0x1000);
            }
        }
        // everything before the memory (ELF header, notes) is as it was, but for the program headers' offsets and sizes
        int firstMemory = (int) in.stream().filter(l -> l.filesz() > 0).mapToLong(Load::offset).min().orElseThrow();
        ByteBuffer eh = ByteBuffer.wrap(before).order(ByteOrder.LITTLE_ENDIAN);
        int phEnd = (int) (eh.getLong(0x20) + 56L * Short.toUnsignedInt(eh.getShort(0x38)));
        assertThat(Arrays.copyOfRange(after, phEnd, firstMemory)).isEqualTo(Arrays.copyOfRange(before, phEnd, firstMemory));
        assertThat(Arrays.copyOf(after, 64)).isEqualTo(Arrays.copyOf(before, 64));
        try (DumpSession dump = Dumps.open(trimmed)) {
            AnswerKeyCheck.Result check = AnswerKeyCheck.check(dump, answer);
            // every object as the key has it; but no type named from metadata: the assemblies' images went with the trim
            assertThat(check.differences()).as("%s", check.first()).isZero();
            assertThat(check.problems()).as("%s", check.first()).isZero();
            assertThat(check.objects()).isPositive().isEqualTo(check.expected());
            assertThat(check.names()).isPositive();
            assertThat(check.first()).allMatch(line -> line.contains("mapped but not captured in the dump"));
        }
    }

    /** A core laid out as createdump lays one out, with a stack holding argv, envp and auxv as the kernel puts them. */
    private static final long STACK = 0x7ffd0000_0000L;
    private static final long LIBFOO = 0x7f00_0000_0000L;
    private static final long CORECLR = 0x7f10_0000_0000L;
    private static final long ANON = 0x5500_0000_0000L;
    private static final long HEAP = 0x5600_0000_0000L;

    private static byte[] syntheticCore() {
        // the stack: [argc][argv...][0][envp...][0][auxv][strings: argv, env, execfn]
        byte[] stack = new byte[0x2000];
        ByteBuffer s = ByteBuffer.wrap(stack).order(ByteOrder.LITTLE_ENDIAN);
        String[] argv = {"/usr/bin/app", "--flag"};
        String[] env = {"HOME=/root", "SECRET=hunter2", "DOTNET_gcServer=1"};
        String execfn = "/usr/bin/app";
        int str = 0x1000;
        List<Long> argvPtrs = new ArrayList<>();
        List<Long> envPtrs = new ArrayList<>();
        for (String a : argv) {
            argvPtrs.add(STACK + str);
            s.put(str, (a + "\0").getBytes(StandardCharsets.US_ASCII));
            str += a.length() + 1;
        }
        for (String e : env) {
            envPtrs.add(STACK + str);
            s.put(str, (e + "\0").getBytes(StandardCharsets.US_ASCII));
            str += e.length() + 1;
        }
        long execfnAddress = STACK + str;
        s.put(str, (execfn + "\0").getBytes(StandardCharsets.US_ASCII));
        long[] auxv = {6, 0x1000, 3, CORECLR + 0x40, 9, CORECLR + 0x100, 31, execfnAddress, 0, 0};
        int p = 0x100;
        s.putLong(p, argv.length);
        p += 8;
        for (long a : argvPtrs) {
            s.putLong(p, a);
            p += 8;
        }
        p += 8;
        for (long e : envPtrs) {
            s.putLong(p, e);
            p += 8;
        }
        p += 8;
        for (long a : auxv) {
            s.putLong(p, a);
            p += 8;
        }
        byte[] heap = new byte[0x1000];
        ByteBuffer h = ByteBuffer.wrap(heap);
        h.put(0x123, "SECRET=hunter2\0".getBytes(StandardCharsets.US_ASCII)); // the runtime's copy of environ
        h.put(0x400, "NOT_SECRET=hunter2\0".getBytes(StandardCharsets.US_ASCII));
        List<Segment> segments = List.of(
                new Segment(ANON, 4, filled(0x1000, 0x11)),
                new Segment(HEAP, 6, heap),
                new Segment(LIBFOO, 5, filled(0x1000, 0x22)),
                new Segment(LIBFOO + 0x1000, 4, filled(0x1000, 0x33)),
                new Segment(LIBFOO + 0x2000, 6, filled(0x1000, 0x44)),
                new Segment(CORECLR, 4, filled(0x1000, 0x55)),
                new Segment(CORECLR + 0x1000, 5, filled(0x1000, 0x66)),
                new Segment(STACK, 6, stack));
        // notes: NT_AUXV and NT_FILE (libfoo 3 pages, libcoreclr 2 pages)
        ByteArrayOutputStream notes = new ByteArrayOutputStream();
        ByteBuffer av = ByteBuffer.allocate(auxv.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long a : auxv) {
            av.putLong(a);
        }
        note(notes, CoreTrimmer.NT_AUXV, av.array());
        String[] paths = {"/usr/lib/libfoo.so", "/usr/share/dotnet/libcoreclr.so"};
        long[][] ranges = {{LIBFOO, LIBFOO + 0x3000}, {CORECLR, CORECLR + 0x2000}};
        ByteBuffer nf = ByteBuffer.allocate(16 + 24 * 2 + 64).order(ByteOrder.LITTLE_ENDIAN);
        nf.putLong(2).putLong(0x1000);
        for (long[] r : ranges) {
            nf.putLong(r[0]).putLong(r[1]).putLong(0);
        }
        for (String path : paths) {
            nf.put((path + "\0").getBytes(StandardCharsets.US_ASCII));
        }
        note(notes, CoreTrimmer.NT_FILE, Arrays.copyOf(nf.array(), nf.position()));
        byte[] noteBytes = notes.toByteArray();
        int phnum = 1 + segments.size();
        long noteOffset = 64 + 56L * phnum;
        long memory = (noteOffset + noteBytes.length + 0xfff) & ~0xfffL;
        ByteBuffer core = ByteBuffer.allocate((int) (memory + 0x1000L * 0 + segments.stream().mapToInt(g -> g.bytes().length).sum())).order(ByteOrder.LITTLE_ENDIAN);
        core.putInt(0x464c457f).put((byte) 2).put((byte) 1).put((byte) 1).put((byte) 0);
        core.putShort(16, (short) 4).putShort(18, (short) 62).putInt(20, 1).putLong(0x20, 64).putShort(0x34, (short) 64).putShort(0x36, (short) 56)
                .putShort(0x38, (short) phnum);
        int ph = 64;
        core.putInt(ph, CoreTrimmer.PT_NOTE).putLong(ph + 8, noteOffset).putLong(ph + 32, noteBytes.length);
        core.put((int) noteOffset, noteBytes);
        long at = memory;
        for (Segment g : segments) {
            ph += 56;
            core.putInt(ph, CoreTrimmer.PT_LOAD).putInt(ph + 4, g.flags()).putLong(ph + 8, at).putLong(ph + 16, g.vaddr()).putLong(ph + 32, g.bytes().length)
                    .putLong(ph + 40, g.bytes().length).putLong(ph + 48, 0x1000);
            core.put((int) at, g.bytes());
            at += g.bytes().length;
        }
        return core.array();
    }

    private static byte[] filled(int n, int b) {
        byte[] x = new byte[n];
        Arrays.fill(x, (byte) b);
        return x;
    }

    private static void note(ByteArrayOutputStream out, int type, byte[] desc) {
        ByteBuffer b = ByteBuffer.allocate(12 + 8 + ((desc.length + 3) & ~3)).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(5).putInt(desc.length).putInt(type).put("CORE\0\0\0\0".getBytes(StandardCharsets.US_ASCII)).put(desc);
        out.writeBytes(b.array());
    }

    @Test
    void otherLibrariesAndTheRuntimesCodeAreDroppedAndTheEnvironmentIsBlankedInPlace() throws IOException {
        Path core = dir.resolve("synthetic.core");
        byte[] before = syntheticCore();
        Files.write(core, before);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CoreTrimmer.Result r = CoreTrimmer.trim(core, out);
        byte[] after = out.toByteArray();
        List<Load> loads = loads(after);
        // anon r--, heap rw-, libfoo r-x r-- rw-, coreclr r-- r-x, stack rw-
        assertThat(loads).extracting(Load::filesz).containsExactly(0x1000L, 0x1000L, 0L, 0L, 0x1000L, 0x1000L, 0L, 0x2000L);
        assertThat(loads).extracting(Load::memsz).containsOnly(0x1000L, 0x2000L);
        assertThat(r.keptSegments()).isEqualTo(5);
        assertThat(r.droppedSegments()).isEqualTo(3);
        assertThat(r.droppedBytes()).isEqualTo(0x3000);
        assertThat(r.runtimeModule()).isEqualTo("/usr/share/dotnet/libcoreclr.so");
        assertThat(r.environmentStrings()).isEqualTo(3);
        assertThat(r.environmentCopies()).isEqualTo(1);
        String stack = new String(bytesAt(after, loads.get(7)), StandardCharsets.ISO_8859_1);
        String stackBefore = new String(bytesAt(before, loads(before).get(7)), StandardCharsets.ISO_8859_1);
        assertThat(stack).hasSameSizeAs(stackBefore).doesNotContain("HOME=", "SECRET", "DOTNET_gcServer", "hunter2").contains("/usr/bin/app\0--flag\0");
        assertThat(stack.indexOf("/usr/bin/app\0", 0x1010)).as("execfn where it was").isEqualTo(stackBefore.indexOf("/usr/bin/app\0", 0x1010));
        assertThat(stack.substring(0x100, 0x1000)).as("the pointers and auxv untouched").isEqualTo(stackBefore.substring(0x100, 0x1000));
        String heap = new String(bytesAt(after, loads.get(1)), StandardCharsets.ISO_8859_1);
        assertThat(heap).contains("NOT_SECRET=hunter2").doesNotContain("\0SECRET=hunter2");
        assertThat(heap.substring(0x123, 0x123 + 14)).isEqualTo("\0".repeat(14));
    }

    @Test
    void aFileThatIsNoCoreIsRefusedNamingIt() throws IOException {
        Path f = dir.resolve("not.core");
        Files.write(f, new byte[100]);
        assertThatThrownBy(() -> CoreTrimmer.trim(f, OutputStream.nullOutputStream())).isInstanceOf(CoreTrimmer.CoreFormatError.class)
                .hasMessageContaining(f.toString()).hasMessageContaining("not an ELF64");
    }

    @Test
    void aLoadOutsideTheFileIsRefusedWithItsOffset() throws IOException {
        byte[] core = syntheticCore();
        ByteBuffer b = ByteBuffer.wrap(core).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(64 + 56 * 2 + 32, 1L << 40); // the heap's p_filesz
        Path f = dir.resolve("bad.core");
        Files.write(f, core);
        assertThatThrownBy(() -> CoreTrimmer.trim(f, OutputStream.nullOutputStream())).isInstanceOf(CoreTrimmer.CoreFormatError.class)
                .hasMessageContaining("lie outside the file");
    }
}
