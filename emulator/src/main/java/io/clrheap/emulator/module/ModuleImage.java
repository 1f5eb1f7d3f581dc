package io.clrheap.emulator.module;

import java.util.ArrayList;
import java.util.List;

/**
 * A laid-out runtime module: its bytes as mapped in the process and as its file holds them, and its mappings; an ELF
 * shared object on Linux, a PE32+ image on Windows.
 */
public final class ModuleImage {

    private final String path;
    private final long base;
    private final long end;
    private final byte[] mapped;
    private final byte[] file;
    private final Platform platform;
    private final int timeDateStamp;

    ModuleImage(String path, long base, long end, byte[] mapped, byte[] file, Platform platform, int timeDateStamp) {
        this.path = path;
        this.base = base;
        this.end = end;
        this.mapped = mapped;
        this.file = file;
        this.platform = platform;
        this.timeDateStamp = timeDateStamp;
    }

    /** ELF (Linux) or PE32+ (Windows). */
    public Platform platform() {
        return platform;
    }

    /** The PE header's TimeDateStamp (Windows); 0 for an ELF image, which has none. */
    public int timeDateStamp() {
        return timeDateStamp;
    }

    public String path() {
        return path;
    }

    public long base() {
        return base;
    }

    /** The end of .bss, page aligned. */
    public long end() {
        return end;
    }

    /**
     * Header, .text and .data as mapped from base (file offset = address - base), .dynamic pointers rebased as ld.so
     * leaves them (ELF); headers, export directory, .text and .data (PE).
     */
    public byte[] mappedBytes() {
        return mapped.clone();
    }

    /** The same bytes as the file on disk holds them: .dynamic pointers are link-time addresses. */
    public byte[] fileBytes() {
        return file.clone();
    }

    /** The file-backed mappings: header (r--p), .text (r-xp), .data (rw-p). */
    public List<ModuleMapping> fileMappings() {
        return List.of(
                new ModuleMapping(base, base + ModuleImageBuilder.TEXT, 0, path, "r--p"),
                new ModuleMapping(base + ModuleImageBuilder.TEXT, base + ModuleImageBuilder.DATA, ModuleImageBuilder.TEXT, path, "r-xp"),
                new ModuleMapping(base + ModuleImageBuilder.DATA, base + ModuleImageBuilder.BSS, ModuleImageBuilder.DATA, path, "rw-p"));
    }

    /** The file-backed mappings and the anonymous .bss tail. */
    public List<ModuleMapping> allMappings() {
        List<ModuleMapping> all = new ArrayList<>(fileMappings());
        if (end > base + ModuleImageBuilder.BSS) {
            all.add(new ModuleMapping(base + ModuleImageBuilder.BSS, end, 0, "", "rw-p"));
        }
        return all;
    }
}
