package io.clrheap.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MinidumpTrimmerTest {

    @TempDir
    Path dir;

    static final long EXE = 0x140000000L;
    static final long SYSTEM_DLL = 0x7b000000L;
    static final long ASSEMBLY = 0x4f10000L;
    static final long HEAP = 0x7e0000000000L;
    static final long TEB = 0x7ffe0000L;
    static final long PEB = 0x7ffd0000L;
    static final long PARAMETERS = 0x7ffc0000L;
    static final long ENVIRONMENT = 0x7ffc1000L;
    static final long C_HEAP = 0x200000L;

    /** A minidump as MiniDumpWriteDump lays it out: header, directory, streams, then the Memory64List's memory. */
    private static final class Minidump {
        final Map<Long, byte[]> memory = new LinkedHashMap<>();
        final List<Object[]> modules = new ArrayList<>(); // base, size, name

        byte[] page(long address) {
            return memory.computeIfAbsent(address, a -> new byte[0x1000]);
        }

        /** A PE image's header page: PE32+ with one .text (executable) section at +0x1000 and a .data at +0x2000. */
        void image(long base, String name, boolean managed) {
            ByteBuffer h = ByteBuffer.wrap(page(base)).order(ByteOrder.LITTLE_ENDIAN);
            h.putShort(0, (short) 0x5a4d).putInt(0x3c, 0x80);
            h.putInt(0x80, 0x4550).putShort(0x84, (short) 0x8664).putShort(0x86, (short) 2).putShort(0x94, (short) 240);
            int optional = 0x98;
            h.putShort(optional, (short) 0x20b).putInt(optional + 108, 16);
            if (managed) {
                h.putInt(optional + 112 + 14 * 8, 0x2008).putInt(optional + 112 + 14 * 8 + 4, 0x48);
            }
            int sections = optional + 240;
            h.put(sections, ".text".getBytes(StandardCharsets.US_ASCII)).putInt(sections + 8, 0x800).putInt(sections + 12, 0x1000).putInt(sections + 36, 0x60000020);
            h.put(sections + 40, ".data".getBytes(StandardCharsets.US_ASCII)).putInt(sections + 48, 0x1000).putInt(sections + 52, 0x2000)
                    .putInt(sections + 76, 0xc0000040);
            Arrays.fill(page(base + 0x1000), (byte) 0xcc);
            Arrays.fill(page(base + 0x2000), (byte) 0x5a);
            modules.add(new Object[] {base, 0x3000L, name});
        }

        byte[] write() {
            ByteArrayOutputStream streams = new ByteArrayOutputStream();
            int directoryRva = 32;
            int streamsAt = directoryRva + 3 * 12;
            // ThreadList: one thread whose TEB is at TEB
            ByteBuffer threads = le(4 + 48).putInt(0, 1).putLong(4 + 16, TEB);
            // ModuleList, then the module names (MINIDUMP_STRING: byte length, UTF-16)
            int moduleListSize = 4 + 108 * modules.size();
            int namesAt = streamsAt + threads.capacity() + moduleListSize;
            ByteBuffer moduleList = le(moduleListSize).putInt(0, modules.size());
            ByteArrayOutputStream names = new ByteArrayOutputStream();
            for (int i = 0; i < modules.size(); i++) {
                byte[] name = ((String) modules.get(i)[2]).getBytes(StandardCharsets.UTF_16LE);
                moduleList.putLong(4 + 108 * i, (Long) modules.get(i)[0]).putInt(4 + 108 * i + 8, (int) (long) (Long) modules.get(i)[1])
                        .putInt(4 + 108 * i + 20, namesAt + names.size());
                names.writeBytes(le(4).putInt(0, name.length).array());
                names.writeBytes(name);
            }
            List<Long> addresses = memory.keySet().stream().sorted().toList();
            int memoryListAt = namesAt + names.size();
            int memoryListSize = 16 + 16 * addresses.size();
            long baseRva = memoryListAt + memoryListSize;
            ByteBuffer memoryList = le(memoryListSize).putLong(0, addresses.size()).putLong(8, baseRva);
            for (int i = 0; i < addresses.size(); i++) {
                memoryList.putLong(16 + 16 * i, addresses.get(i)).putLong(24 + 16 * i, 0x1000);
            }
            ByteBuffer header = le(32).putInt(0, MinidumpTrimmer.SIGNATURE).putInt(4, 0xa793).putInt(8, 3).putInt(12, directoryRva);
            ByteBuffer directory = le(36);
            directory.putInt(0, MinidumpTrimmer.THREAD_LIST).putInt(4, threads.capacity()).putInt(8, streamsAt);
            directory.putInt(12, MinidumpTrimmer.MODULE_LIST).putInt(16, moduleListSize).putInt(20, streamsAt + threads.capacity());
            directory.putInt(24, MinidumpTrimmer.MEMORY64_LIST).putInt(28, memoryListSize).putInt(32, memoryListAt);
            streams.writeBytes(header.array());
            streams.writeBytes(directory.array());
            streams.writeBytes(threads.array());
            streams.writeBytes(moduleList.array());
            streams.writeBytes(names.toByteArray());
            streams.writeBytes(memoryList.array());
            for (long a : addresses) {
                streams.writeBytes(memory.get(a));
            }
            return streams.toByteArray();
        }
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The memory of a minidump: address to page bytes, as its Memory64List says. */
    private static Map<Long, byte[]> memoryOf(byte[] dump) {
        ByteBuffer b = ByteBuffer.wrap(dump).order(ByteOrder.LITTLE_ENDIAN);
        int streams = b.getInt(8);
        int directory = b.getInt(12);
        Map<Long, byte[]> out = new LinkedHashMap<>();
        for (int i = 0; i < streams; i++) {
            if (b.getInt(directory + 12 * i) == MinidumpTrimmer.MEMORY64_LIST) {
                int list = b.getInt(directory + 12 * i + 8);
                assertThat(b.getInt(directory + 12 * i + 4)).as("the Memory64List's DataSize").isEqualTo(16 + 16 * (int) b.getLong(list));
                long at = b.getLong(list + 8);
                for (int r = 0; r < b.getLong(list); r++) {
                    long size = b.getLong(list + 24 + 16 * r);
                    out.put(b.getLong(list + 16 + 16 * r), Arrays.copyOfRange(dump, (int) at, (int) (at + size)));
                    at += size;
                }
            }
        }
        return out;
    }

    private Minidump process() {
        Minidump d = new Minidump();
        d.image(EXE, "Z:\\app\\Sarif.Multitool.exe", false); // first module: the single-file host, the runtime
        d.image(SYSTEM_DLL, "C:\\windows\\system32\\kernelbase.dll", false);
        d.image(ASSEMBLY, "Z:\\app\\HeapProbe.dll", true);
        Arrays.fill(d.page(HEAP), (byte) 0x11);
        ByteBuffer.wrap(d.page(TEB)).order(ByteOrder.LITTLE_ENDIAN).putLong(MinidumpTrimmer.TEB_PEB, PEB);
        ByteBuffer.wrap(d.page(PEB)).order(ByteOrder.LITTLE_ENDIAN).putLong(MinidumpTrimmer.PEB_PROCESS_PARAMETERS, PARAMETERS);
        ByteBuffer.wrap(d.page(PARAMETERS)).order(ByteOrder.LITTLE_ENDIAN).putLong(MinidumpTrimmer.PARAMETERS_ENVIRONMENT, ENVIRONMENT);
        byte[] block = "API_TOKEN=s3cret\0HOME=/root\0\0".getBytes(StandardCharsets.UTF_16LE);
        System.arraycopy(block, 0, d.page(ENVIRONMENT), 0, block.length);
        byte[] heap = d.page(C_HEAP);
        byte[] narrow = "API_TOKEN=s3cret\0NOT_API_TOKEN=s3cret\0".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(narrow, 0, heap, 0x100, narrow.length);
        byte[] wide = "API_TOKEN=s3cret".getBytes(StandardCharsets.UTF_16LE);
        System.arraycopy(wide, 0, heap, 0x800, wide.length);
        return d;
    }

    private MinidumpTrimmer.Result trim(byte[] dump, ByteArrayOutputStream out) throws Exception {
        Path file = dir.resolve("in.dmp");
        Files.write(file, dump);
        return MinidumpTrimmer.trim(file, out);
    }

    @Test
    void keepsPrivateMemoryTheRuntimeModulesDataAndManagedImagesAndDropsSystemDllsAndTheRuntimesCode() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MinidumpTrimmer.Result r = trim(process().write(), out);

        Map<Long, byte[]> kept = memoryOf(out.toByteArray());
        assertThat(kept).containsKeys(HEAP, EXE, EXE + 0x2000, ASSEMBLY, ASSEMBLY + 0x1000, ASSEMBLY + 0x2000, TEB, PEB, C_HEAP)
                .doesNotContainKeys(EXE + 0x1000, SYSTEM_DLL, SYSTEM_DLL + 0x1000, SYSTEM_DLL + 0x2000);
        assertThat(kept.get(HEAP)).containsOnly(0x11);
        assertThat(kept.get(EXE + 0x2000)).containsOnly(0x5a);
        assertThat(r.runtimeModule()).isEqualTo("Z:\\app\\Sarif.Multitool.exe");
        assertThat(r.droppedRanges()).isEqualTo(4);
        assertThat(r.droppedBytes()).isEqualTo(4 * 0x1000);
    }

    @Test
    void coreclrDllIsTheRuntimeModuleWhenLoaded() throws Exception {
        Minidump d = process();
        d.image(0x180000000L, "C:\\dotnet\\shared\\Microsoft.NETCore.App\\8.0.30\\coreclr.dll", false);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MinidumpTrimmer.Result r = trim(d.write(), out);

        assertThat(r.runtimeModule()).endsWith("\\coreclr.dll");
        assertThat(memoryOf(out.toByteArray())).containsKeys(0x180000000L, 0x180002000L).doesNotContainKeys(EXE, 0x180001000L);
    }

    @Test
    void blanksTheEnvironmentBlockAndItsCopiesButNotALongerKeyEndingTheSame() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MinidumpTrimmer.Result r = trim(process().write(), out);

        Map<Long, byte[]> kept = memoryOf(out.toByteArray());
        assertThat(r.environmentStrings()).isEqualTo(2);
        assertThat(Arrays.copyOf(kept.get(ENVIRONMENT), 64)).containsOnly(0);
        String heap = new String(kept.get(C_HEAP), StandardCharsets.ISO_8859_1);
        assertThat(heap).doesNotContain("API_TOKEN=s3cret\0NOT").contains("NOT_API_TOKEN=s3cret");
        assertThat(new String(kept.get(C_HEAP), StandardCharsets.UTF_16LE)).doesNotContain("s3cret");
        assertThat(r.environmentCopies()).isEqualTo(2);
    }

    @Test
    void everyByteBeforeTheMemoryListButItsDataSizeIsKept() throws Exception {
        byte[] in = process().write();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        trim(in, out);

        byte[] trimmed = out.toByteArray();
        ByteBuffer b = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
        int memoryList = b.getInt(32 + 2 * 12 + 8);
        int dataSize = 32 + 2 * 12 + 4; // the Memory64List's directory entry
        ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN).putInt(dataSize, ByteBuffer.wrap(trimmed).order(ByteOrder.LITTLE_ENDIAN).getInt(dataSize));
        assertThat(Arrays.copyOf(trimmed, memoryList)).isEqualTo(Arrays.copyOf(in, memoryList));
        assertThat(ByteBuffer.wrap(trimmed).order(ByteOrder.LITTLE_ENDIAN).getLong(memoryList + 8)).as("BaseRva").isEqualTo(b.getLong(memoryList + 8));
    }

    @Test
    void aFileThatIsNoMinidumpIsRefusedWithItsOffset() throws Exception {
        Path f = dir.resolve("not.dmp");
        Files.write(f, new byte[64]);

        assertThatThrownBy(() -> MinidumpTrimmer.trim(f, OutputStream.nullOutputStream())).isInstanceOf(MinidumpTrimmer.MinidumpFormatError.class)
                .hasMessageContaining("file offset 0x0").hasMessageContaining("not a minidump");
    }

    @Test
    void memoryRunningPastTheEndOfTheFileIsRefusedWithTheRange() throws Exception {
        byte[] in = process().write();
        Path f = dir.resolve("short.dmp");
        Files.write(f, Arrays.copyOf(in, in.length - 0x800));

        assertThatThrownBy(() -> MinidumpTrimmer.trim(f, OutputStream.nullOutputStream())).isInstanceOf(MinidumpTrimmer.MinidumpFormatError.class)
                .hasMessageContaining("runs past the end of the file");
    }
}
