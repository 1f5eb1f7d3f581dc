package io.clrheap.walker.source.minidump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import java.util.List;
import io.clrheap.walker.source.Register;
import io.clrheap.walker.source.RegisterSet;
import org.junit.jupiter.api.io.TempDir;

/** A minidump read as memory, modules, threads, process id and type names. */
class MinidumpTest {

    private static final long A = 0x7ff6_1000_0000L;
    private static final long B = 0x0000_00a0_0000_0000L;

    @TempDir
    Path dir;

    private Path write(TestMinidumpWriter writer) throws IOException {
        return Files.write(dir.resolve("test.dmp"), writer.build());
    }

    @Test
    void readsTheBytesOfEachMemory64RangeAtItsAddress() throws IOException {
        byte[] first = TestMinidumpWriter.pattern(0x2000, 1);
        byte[] second = TestMinidumpWriter.pattern(0x100, 9);
        try (Minidump dump = Minidump.open(write(new TestMinidumpWriter().memory64(A, first).memory64(B, second)))) {
            assertThat(dump.readBytes(A, first.length)).isEqualTo(first);
            assertThat(dump.readBytes(B, second.length)).isEqualTo(second);
            assertThat(dump.readLong(A + 8)).isEqualTo(java.nio.ByteBuffer.wrap(first, 8, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong());
            assertThat(dump.readU8(B + 0xff)).isEqualTo(second[0xff] & 0xff);
            assertThat(dump.ranges()).containsExactly(new MemoryRange(B, 0x100), new MemoryRange(A, 0x2000));
        }
    }

    @Test
    void anXzCompressedMinidumpIsDecompressedIntoTheCacheAndReadTheSame() throws IOException {
        byte[] first = TestMinidumpWriter.pattern(0x2000, 1);
        byte[] plain = new TestMinidumpWriter().memory64(A, first).memory64(B, TestMinidumpWriter.pattern(0x100, 9)).build();
        Path xz = dir.resolve("test.dmp.xz");
        try (java.io.OutputStream out = new org.tukaani.xz.XZOutputStream(Files.newOutputStream(xz), new org.tukaani.xz.LZMA2Options())) {
            out.write(plain);
        }
        java.util.List<String> notes = new java.util.ArrayList<>();
        Path cache = dir.resolve("cache");
        try (Minidump dump = Minidump.open(xz, MinidumpLimits.DEFAULT, notes::add, io.clrheap.walker.source.CoreCache.inFolder(cache, 1L << 30))) {
            assertThat(dump.readBytes(A, first.length)).isEqualTo(first);
            assertThat(dump.ranges()).containsExactly(new MemoryRange(B, 0x100), new MemoryRange(A, 0x2000));
        }
        try (java.util.stream.Stream<Path> entries = Files.list(cache)) {
            assertThat(entries).singleElement().satisfies(entry -> assertThat(Files.readAllBytes(entry)).isEqualTo(plain));
        }
        try (java.util.stream.Stream<Path> beside = Files.list(dir)) {
            assertThat(beside.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("test.dmp.xz", "cache");
        }
        assertThat(notes).singleElement().asString().startsWith("decompressing ");
        assertThat(io.clrheap.walker.source.DumpFiles.sniff(xz)).isEqualTo(io.clrheap.walker.source.DumpFiles.Format.MINIDUMP);
    }

    @Test
    void anXzMinidumpWhoseDataRunPastWhatItsMemoryListDeclaresIsRefused() throws IOException {
        byte[] plain = new TestMinidumpWriter().memory64(A, TestMinidumpWriter.pattern(0x1000, 1)).build();
        byte[] longer = java.util.Arrays.copyOf(plain, plain.length + 0x1000);
        Path xz = dir.resolve("long.dmp.xz");
        try (java.io.OutputStream out = new org.tukaani.xz.XZOutputStream(Files.newOutputStream(xz), new org.tukaani.xz.LZMA2Options())) {
            out.write(longer);
        }
        Path cache = dir.resolve("cache");
        assertThatThrownBy(() -> Minidump.open(xz, MinidumpLimits.DEFAULT, n -> { }, io.clrheap.walker.source.CoreCache.inFolder(cache, 1L << 30)))
                .isInstanceOf(io.clrheap.walker.source.DumpFormatException.class)
                .hasMessageContaining("the xz index records").hasMessageContaining("Memory64List's memory ends there");
        try (java.util.stream.Stream<Path> entries = Files.list(cache)) {
            assertThat(entries).isEmpty();
        }
    }

    @Test
    void readsTheRangesOfAMemoryListStreamToo() throws IOException {
        byte[] stack = TestMinidumpWriter.pattern(0x300, 3);
        try (Minidump dump = Minidump.open(write(new TestMinidumpWriter().memory32(B, stack).memory64(A, TestMinidumpWriter.pattern(0x10, 0))))) {
            assertThat(dump.readBytes(B, stack.length)).isEqualTo(stack);
            assertThat(dump.contains(A, 0x10)).isTrue();
        }
    }

    @Test
    void aReadMaySpanRangesThatAreAdjacentInMemory() throws IOException {
        byte[] low = TestMinidumpWriter.pattern(0x1000, 1);
        byte[] high = TestMinidumpWriter.pattern(0x1000, 2);
        try (Minidump dump = Minidump.open(write(new TestMinidumpWriter().memory64(A, low).memory64(A + 0x1000, high)))) {
            byte[] across = dump.readBytes(A + 0xffc, 8);
            assertThat(across).startsWith(low[0xffc], low[0xffd], low[0xffe], low[0xfff]).endsWith(high[0], high[1], high[2], high[3]);
            assertThat(dump.readLong(A + 0xffc)).isEqualTo(java.nio.ByteBuffer.wrap(across).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong());
            assertThat(dump.ranges()).containsExactly(new MemoryRange(A, 0x2000));
        }
    }

    @Test
    void aReadOutsideTheMemoryThrowsWithTheAddress() throws IOException {
        try (Minidump dump = Minidump.open(write(new TestMinidumpWriter().memory64(A, new byte[0x100])))) {
            assertThatThrownBy(() -> dump.readLong(A + 0xfc))
                    .isInstanceOfSatisfying(MissingMemoryException.class, e -> {
                        assertThat(e.address()).isEqualTo(A + 0xfc);
                        assertThat(e.reason()).isEqualTo(MissingMemoryException.Reason.NOT_MAPPED);
                    })
                    .hasMessageContaining("0x7ff6100000fc").hasMessageContaining("test.dmp");
            assertThatThrownBy(() -> dump.readByte(A - 1)).isInstanceOf(MissingMemoryException.class);
            assertThatThrownBy(() -> dump.readBytes(A + 0x80, 0x100)).isInstanceOf(MissingMemoryException.class);
            assertThat(dump.contains(A, 0x101)).isFalse();
            assertThat(dump.contains(A + 0xff, 1)).isTrue();
        }
    }

    @Test
    void listsTheModulesWithTheirNames() throws IOException {
        String path = "C:\\Program Files\\dotnet\\shared\\Microsoft.NETCore.App\\9.0.1\\coreclr.dll";
        try (Minidump dump = Minidump.open(write(new TestMinidumpWriter().module(A, 0x61000, path, 0x12345678).module(B, 0x1000, "app.exe", -1)
                .memory64(A, new byte[16])))) {
            assertThat(dump.modules()).containsExactly(new MinidumpModule(A, 0x61000, path, 0x12345678, 0),
                    new MinidumpModule(B, 0x1000, "app.exe", 0xffff_ffffL, 0));
            assertThat(dump.modules().getFirst().fileName()).isEqualTo("coreclr.dll");
        }
    }

    @Test
    void listsTheThreadsWithTheirStacksAndRegisters() throws IOException {
        try (Minidump dump = Minidump.open(write(new TestMinidumpWriter().thread(4242, B, B + 0xc000, 0x4000, A + 0x10000, B + 0xf000)
                .memory64(A, new byte[16])))) {
            MinidumpThread t = dump.threads().getFirst();
            assertThat(dump.threads()).hasSize(1);
            assertThat(List.of(t.threadId(), t.teb(), t.stackStart(), t.stackSize())).containsExactly(4242L, B, B + 0xc000, 0x4000L);
            assertThat(t.rip()).hasValue(A + 0x10000);
            assertThat(t.rsp()).hasValue(B + 0xf000);
            RegisterSet r = t.registers().orElseThrow();
            assertThat(r.get(Register.RBX)).isEqualTo(0x1234);
            assertThat(r.get(Register.R15)).isEqualTo(0xf15);
            assertThat(r.get(Register.RAX)).isZero();
            assertThat(dump.osThreads()).singleElement().satisfies(o -> {
                assertThat(o.osId()).isEqualTo(4242);
                assertThat(o.registers()).isEqualTo(r);
                assertThat(o.stackBase()).as("no TEB memory: the end of the thread list's stack").isEqualTo(B + 0x10000);
            });
        }
    }

    @Test
    void givesTheProcessIdOfTheMiscInfoStream() throws IOException {
        try (Minidump withPid = Minidump.open(write(new TestMinidumpWriter().processId(4242).memory64(A, new byte[16])))) {
            assertThat(withPid.processId()).hasValue(4242);
        }
        try (Minidump without = Minidump.open(write(new TestMinidumpWriter().memory64(A, new byte[16])))) {
            assertThat(without.processId()).isEmpty();
            assertThat(without.modules()).isEmpty();
            assertThat(without.threads()).isEmpty();
        }
    }

    @Test
    void readsTheTypeNamesOfTheClrhStream() throws IOException {
        String text = "0x7f3900001000 System.String\n0x7f3900002000 System.Collections.Generic.Dictionary<System.String, System.Int32>\n"
                + "0x7f3900003000 Ünïcödé.Typé\n";
        try (Minidump dump = Minidump.open(write(new TestMinidumpWriter().typeNames(text).memory64(A, new byte[16])))) {
            assertThat(dump.typeNames()).hasValueSatisfying(names -> assertThat(names).containsExactly(
                    Map.entry(0x7f3900001000L, "System.String"),
                    Map.entry(0x7f3900002000L, "System.Collections.Generic.Dictionary<System.String, System.Int32>"),
                    Map.entry(0x7f3900003000L, "Ünïcödé.Typé")));
        }
        try (Minidump none = Minidump.open(write(new TestMinidumpWriter().memory64(A, new byte[16])))) {
            assertThat(none.typeNames()).isEmpty();
        }
    }

    @Test
    void anEmptyMemoryListIsNoMemory() throws IOException {
        try (Minidump dump = Minidump.open(write(new TestMinidumpWriter()))) {
            assertThat(dump.ranges()).isEmpty();
            assertThatThrownBy(() -> dump.readByte(A)).isInstanceOf(MissingMemoryException.class);
        }
    }

    @Test
    void tellsAMinidumpFromOtherFilesByItsSignature() throws IOException {
        assertThat(Minidump.isMinidump(write(new TestMinidumpWriter()))).isTrue();
        assertThat(Minidump.isMinidump(Files.write(dir.resolve("core"), new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0}))).isFalse();
        assertThat(Minidump.isMinidump(Files.write(dir.resolve("short"), new byte[] {'M', 'D', 'M'}))).isFalse();
        assertThat(Minidump.isMinidump(Files.write(dir.resolve("empty"), new byte[0]))).isFalse();
    }

    @Test
    void readsAfterCloseAreRefused() throws IOException {
        Minidump dump = Minidump.open(write(new TestMinidumpWriter().memory64(A, new byte[16])));
        dump.close();
        assertThatThrownBy(() -> dump.readLong(A)).isInstanceOf(IllegalStateException.class);
    }
}
