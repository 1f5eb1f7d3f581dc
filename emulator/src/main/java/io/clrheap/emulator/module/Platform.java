package io.clrheap.emulator.module;

import io.clrheap.layout.TargetOs;

/**
 * The operating system an emulated process runs on, which decides the runtime module's file format and name
 * ({@code libcoreclr.so}, an ELF shared object, on Linux; {@code coreclr.dll}, a PE32+ image, on Windows) and the
 * layouts of the runtime's structures: a Windows process is laid out by the Windows profile of its build
 * ({@code net8.0-windows}, {@code builds/windows-x64-8.0.30.json}), taken from real Windows processes.
 */
public enum Platform {
    /** The runtime module is {@code libcoreclr.so}: ELF header, GNU-hash dynamic symbols. */
    LINUX(TargetOs.LINUX),
    /** The runtime module is {@code coreclr.dll}: DOS and PE headers, a section table and an export directory. */
    WINDOWS(TargetOs.WINDOWS);

    private final TargetOs os;

    Platform(TargetOs os) {
        this.os = os;
    }

    /** The system whose layouts the process has. */
    public TargetOs os() {
        return os;
    }
}
