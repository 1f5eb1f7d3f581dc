package io.clrheap.emulator.module;

/**
 * The operating system an emulated process runs on, which decides the runtime module's file format and name:
 * {@code libcoreclr.so} (an ELF shared object) on Linux, {@code coreclr.dll} (a PE32+ image) on Windows.
 *
 * <p>Only the module image differs. The structure layouts are the Linux x64 profiles on both (no real Windows dump
 * was available to take Windows offsets from), and everything outside the module's header part — heaps, objects,
 * MethodTables, threads, handles, the module's own variables — is byte for byte the same, at the same addresses, so
 * one answer key serves a Linux core and a Windows minidump of the same scenario.
 */
public enum Platform {
    /** The runtime module is {@code libcoreclr.so}: ELF header, GNU-hash dynamic symbols. */
    LINUX,
    /** The runtime module is {@code coreclr.dll}: DOS and PE headers, a section table and an export directory. */
    WINDOWS
}
