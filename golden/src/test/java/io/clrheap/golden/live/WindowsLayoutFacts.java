package io.clrheap.golden.live;

import io.clrheap.memory.Memory;
import io.clrheap.walker.symbols.ModuleFormatException;
import io.clrheap.walker.symbols.PeExports;
import java.util.ArrayList;
import java.util.List;

/**
 * An independent reader of a Windows x64 runtime that knows only the facts measured on the real Windows dumps
 * (docs/reference/windows.md section 3), not clrheap's profiles: where the free object's MethodTable and ThreadStore
 * are in {@code g_dacTable}, where ThreadStore's thread list starts and where a Thread keeps its link and its OS
 * thread id. Applied to a real Windows dump and to clrheap's emulated Windows process of the same build, it must read
 * the same structures in both.
 *
 * @param tableLength      g_dacTable's entries before the first 0 word
 * @param freeMtBaseSize   the BaseSize of the MethodTable at {@code *g_dacTable[freeMtIndex]}
 * @param threadOsIds      the OS thread ids of the ThreadStore's list, in list order
 */
record WindowsLayoutFacts(int tableLength, int freeMtBaseSize, List<Long> threadOsIds) {

    /** The measured facts of one Windows build. */
    enum Build {
        V8_0_30(169, 16, 55, 0x40, 0xf8, 0x1b8),
        V10_0_9(138, 15, 57, 0x40, 0x78, 0x130);

        final int tableLength;
        final int threadStoreIndex;
        final int freeMtIndex;
        final int firstLink;
        final int link;
        final int osId;

        Build(int tableLength, int threadStoreIndex, int freeMtIndex, int firstLink, int link, int osId) {
            this.tableLength = tableLength;
            this.threadStoreIndex = threadStoreIndex;
            this.freeMtIndex = freeMtIndex;
            this.firstLink = firstLink;
            this.link = link;
            this.osId = osId;
        }

        static Build of(WindowsRuntime runtime) {
            return runtime.major() == 8 ? V8_0_30 : V10_0_9;
        }
    }

    private static final int MAX_TABLE = 4096;
    private static final int MAX_THREADS = 1024;

    /** Reads the facts of the runtime module at {@code moduleBase} (a PE image exporting g_dacTable) in {@code memory}. */
    static WindowsLayoutFacts read(Memory memory, long moduleBase, Build build) throws ModuleFormatException {
        long table = PeExports.inMemory(memory, moduleBase).lookup("g_dacTable")
                .orElseThrow(() -> new AssertionError("the module at 0x" + Long.toHexString(moduleBase) + " exports no g_dacTable"));
        int length = 0;
        while (length < MAX_TABLE && memory.readLong(table + 8L * length) != 0) {
            length++;
        }
        long freeMt = memory.readLong(memory.readLong(table + 8L * build.freeMtIndex));
        int baseSize = memory.readInt(freeMt + 4);
        long store = memory.readLong(memory.readLong(table + 8L * build.threadStoreIndex));
        List<Long> ids = new ArrayList<>();
        for (long l = memory.readLong(store + build.firstLink); l != 0 && ids.size() < MAX_THREADS; l = memory.readLong(l)) {
            ids.add(memory.readLong(l - build.link + build.osId));
        }
        return new WindowsLayoutFacts(length, baseSize, List.copyOf(ids));
    }
}
