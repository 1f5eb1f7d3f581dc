package io.clrheap.walker.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.source.elf.ElfCore;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory bounded by design: a 110 MB type-name note in an ELF core, a 110 MB minidump-style stream and a 60 MiB
 * names file (a list of objects, each naming its type) are read by a child JVM limited to {@code -Xmx256m} (the
 * readers used to need more than 1 GiB). The files are written here, streamed; the child opens them and looks a
 * name up.
 */
class TypeNameMemoryTest {

    private static final long MB = 1_000_000;
    private static final long MT_BASE = 0x7f83_6000_0000L;

    /** ~50-byte lines of distinct MethodTables, ascending, until {@code bytes}; returns the line count. */
    private static long writeNameLines(OutputStream out, long bytes) throws IOException {
        long written = 0;
        long i = 0;
        while (written < bytes) {
            byte[] line = String.format("0x%x Contoso.Orders.Generated.Type%08d[System.String]\n", MT_BASE + 8 * i, i)
                    .getBytes(StandardCharsets.US_ASCII);
            out.write(line);
            written += line.length;
            i++;
        }
        return i;
    }

    private static String nameOf(long i) {
        return String.format("Contoso.Orders.Generated.Type%08d[System.String]", i);
    }

    /** An x86-64 ET_CORE with one PT_NOTE holding one clrheap note of {@code descBytes} name lines (no memory). */
    private static long writeCore(Path file, long descBytes) throws IOException {
        Path desc = file.resolveSibling("desc.tmp");
        long lines;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(desc), 1 << 16)) {
            lines = writeNameLines(out, descBytes);
        }
        long descsz = Files.size(desc);
        long noteOffset = 64 + 56;
        long noteSize = 12 + 8 + ((descsz + 3) & ~3L);
        ByteBuffer h = ByteBuffer.allocate((int) noteOffset + 20).order(ByteOrder.LITTLE_ENDIAN);
        h.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1});
        h.putShort(16, (short) 4).putShort(18, (short) 62).putInt(20, 1).putLong(32, 64).putShort(52, (short) 64)
                .putShort(54, (short) 56).putShort(56, (short) 1);
        h.putInt(64, 4).putInt(68, 4).putLong(64 + 8, noteOffset).putLong(64 + 32, noteSize).putLong(64 + 48, 4); // PT_NOTE
        h.putInt(120, 8).putInt(124, (int) descsz).putInt(128, TypeNameSidecar.ELF_NOTE_TYPE);
        h.put(132, "clrheap\0".getBytes(StandardCharsets.US_ASCII));
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            out.write(h.array());
            Files.copy(desc, out);
            out.write(new byte[(int) (((descsz + 3) & ~3L) - descsz)]);
        }
        Files.delete(desc);
        return lines;
    }

    /** What the child JVM runs: opens the file the way {@code mode} says and prints the name of {@code mt}. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            Path file = Path.of(args[1]);
            long mt = Long.parseUnsignedLong(args[2], 16);
            String name;
            int size;
            switch (args[0]) {
                case "elf" -> {
                    try (ElfCore core = ElfCore.open(file)) {
                        name = core.typeNames().get(mt);
                        size = core.typeNames().size();
                    }
                }
                case "names" -> {
                    TypeNames names = TypeNames.load(file);
                    name = names.name(mt).orElse(null);
                    size = names.size();
                }
                default -> { // the minidump's stream and the bundle's file: the same parse on a mapped slice
                    try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                        MemorySegment text = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
                        TypeNameTable t = args[0].equals("strict") ? TypeNameTable.parse(text, TypeNameTable.Syntax.STRICT)
                                : TypeNameTable.parse(text, TypeNameTable.Syntax.SIDECAR, true);
                        name = t.name(mt);
                        size = t.size();
                    }
                }
            }
            System.out.println(size + " " + name);
        }
    }

    private static String runChild(String mode, Path file, long mt) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Child.class.getName(), mode,
                file.toString(), Long.toHexString(mt)));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        String text = new String(out, StandardCharsets.UTF_8).strip();
        assertThat(p.exitValue()).as("%s under -Xmx256m: %s", mode, text).isZero();
        return text;
    }

    @Test
    void a110MbNameNoteInAnElfCoreOpensUnder256MbOfHeap(@TempDir Path tmp) throws Exception {
        Path core = tmp.resolve("names.core");
        long lines = writeCore(core, 110 * MB);
        long last = lines - 1;
        assertThat(runChild("elf", core, MT_BASE + 8 * last)).isEqualTo(lines + " " + nameOf(last));
    }

    @Test
    void a110MbStrictStreamAndA60MibBundleFileParseUnder256MbOfHeap(@TempDir Path tmp) throws Exception {
        Path stream = tmp.resolve("clrh.stream");
        long lines;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(stream), 1 << 16)) {
            lines = writeNameLines(out, 110 * MB);
        }
        assertThat(runChild("strict", stream, MT_BASE + 8 * 12345)).isEqualTo(lines + " " + nameOf(12345));
        Files.delete(stream);
        Path bundleFile = tmp.resolve("type-names.txt");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(bundleFile), 1 << 16)) {
            lines = writeNameLines(out, 60L << 20);
        }
        assertThat(runChild("bundle", bundleFile, MT_BASE)).isEqualTo(lines + " " + nameOf(0));
    }

    @Test
    void a60MibListOfObjectsLoadsUnder256MbOfHeap(@TempDir Path tmp) throws Exception {
        Path list = tmp.resolve("live-objects.txt");
        long written = 0;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(list), 1 << 16)) {
            out.write("# address size mt type\n".getBytes(StandardCharsets.US_ASCII));
            for (long i = 0; written < (60L << 20); i++) {
                long type = (i * 7919) % 20_000;
                byte[] line = String.format("0x%x %d 0x%x %s\n", 0x7f43_4800_0028L + 24 * i, 24, MT_BASE + 8 * type, nameOf(type))
                        .getBytes(StandardCharsets.US_ASCII);
                out.write(line);
                written += line.length;
            }
        }
        assertThat(runChild("names", list, MT_BASE + 8 * 19_999)).isEqualTo("20000 " + nameOf(19_999));
    }
}
