package io.clrheap.generator.minidump;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * ThreadInfoListStream (17), what MiniDumpWithThreadInfo adds: MINIDUMP_THREAD_INFO_LIST, a 12-byte header
 * (SizeOfHeader = 12, SizeOfEntry = 64, NumberOfEntries, u32 each), then one MINIDUMP_THREAD_INFO of 64 bytes per
 * thread of the thread list, in its order: ThreadId @0, DumpFlags @4, DumpError @8, ExitStatus @12 (u32 each),
 * CreateTime @16, ExitTime @24, KernelTime @32, UserTime @40, StartAddress @48, Affinity @56 (u64 each). Sizes and
 * offsets: Microsoft's minidumpapiset.h and mingw-w64's dbghelp.h (checked with x86_64-w64-mingw32-gcc);
 * docs/reference/dump-formats.md section 3.4. ClrMD refuses the stream unless SizeOfEntry is 64.
 *
 * <p>What each entry says: no dump flags and no error (the thread was read whole); ExitStatus STILL_ACTIVE (259,
 * winbase.h), a running thread's; created at {@code createTime} (a FILETIME: the same stand-in for every thread, as
 * the emulator has no clock), no CPU time spent; the start address and affinity the caller gives.
 */
final class ThreadInfoList {

    static final int HEADER_SIZE = 12;
    static final int ENTRY_SIZE = 64;
    /** STILL_ACTIVE (STATUS_PENDING): the exit status of a thread that has not exited. */
    static final int STILL_ACTIVE = 259;

    private ThreadInfoList() {
    }

    static int size(int threads) {
        return HEADER_SIZE + ENTRY_SIZE * threads;
    }

    static byte[] bytes(List<ThreadStack> threads, long createTime, long startAddress, long affinity) {
        ByteBuffer b = ByteBuffer.allocate(size(threads.size())).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(HEADER_SIZE).putInt(ENTRY_SIZE).putInt(threads.size());
        for (ThreadStack t : threads) {
            b.putInt((int) t.threadId()).putInt(0).putInt(0).putInt(STILL_ACTIVE);
            b.putLong(createTime).putLong(0).putLong(0).putLong(0);   // CreateTime, ExitTime, KernelTime, UserTime
            b.putLong(startAddress).putLong(affinity);
        }
        return b.array();
    }
}
