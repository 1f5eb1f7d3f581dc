package io.clrheap.emulator.module;

/**
 * One mapping of the module, as /proc/PID/maps (and an ELF core's NT_FILE note) lists it.
 *
 * @param start       first address
 * @param end         first address past it
 * @param fileOffset  offset in the file of its first byte (0 for the anonymous .bss tail)
 * @param path        the file, or "" for anonymous memory
 * @param permissions e.g. {@code r--p}, {@code r-xp}, {@code rw-p}
 */
public record ModuleMapping(long start, long end, long fileOffset, String path, String permissions) {
}
