package io.clrheap.generator.minidump;

/**
 * One range of the dump's memory: {@code [start, start + size)}, its bytes either read from the process memory as
 * they are written ({@code bytes} null) or made by the writer (a thread's TEB or stack).
 */
record MemoryRun(long start, long size, byte[] bytes) {

    long end() {
        return start + size;
    }
}
