package io.clrheap.generator.materialize;

import java.nio.file.Path;
import java.util.Locale;

/**
 * One range of an emulated process's memory as the materialize helper places it: {@code [start, end)} (page aligned)
 * with permissions {@code r--p}, {@code r-xp}, {@code rw-p}, either mapped privately from {@code file} at
 * {@code offset} (the runtime module, so that /proc/PID/maps names it) or anonymous memory filled from the image file
 * at {@code offset} ({@code file} null).
 *
 * @param name what the range is: the emulator's reservation ("GC regions", "loader heap", …) or the module's part
 */
public record PlacedRange(long start, long end, String permissions, Path file, long offset, String name) {

    static final long PAGE = 4096;

    public PlacedRange {
        if ((start | end | offset) % PAGE != 0 || Long.compareUnsigned(start, end) >= 0) {
            throw new IllegalArgumentException(String.format("range %s [0x%x, 0x%x) at offset 0x%x is not page aligned and non-empty",
                    name, start, end, offset));
        }
        if (permissions.length() != 4 || permissions.charAt(0) != 'r') {
            throw new IllegalArgumentException("range " + name + ": permissions " + permissions + " (expected r--p, r-xp, rw-p, …)");
        }
        if (name.contains("\t") || name.contains("\n") || (file != null && (file.toString().contains("\t") || file.toString().contains("\n")))) {
            throw new IllegalArgumentException("range " + name + ": a tab or line break in its name or file");
        }
    }

    public long length() {
        return end - start;
    }

    /** Anonymous memory, filled from the image file. */
    public boolean anonymous() {
        return file == null;
    }

    /** The {@code mmap}/{@code mprotect} protection of {@link #permissions()}. */
    int protection() {
        return LibC.PROT_READ | (permissions.charAt(1) == 'w' ? LibC.PROT_WRITE : 0) | (permissions.charAt(2) == 'x' ? LibC.PROT_EXEC : 0);
    }

    /** {@code [0x…, 0x…) name}, as the helper's messages name a range. */
    public String describe() {
        return String.format(Locale.ROOT, "[0x%x, 0x%x) %s (%s)", start, end, name, anonymous() ? "anonymous" : file.getFileName());
    }

    /** One line of the plan file: start, end, permissions, {@code anon} or {@code file}, offset, file or {@code -}, name. */
    String toLine() {
        return String.format(Locale.ROOT, "%x\t%x\t%s\t%s\t%x\t%s\t%s", start, end, permissions, anonymous() ? "anon" : "file", offset,
                anonymous() ? "-" : file.toString(), name);
    }

    static PlacedRange parse(String line, Path planFile, int number) {
        String[] f = line.split("\t", 7);
        if (f.length != 7 || !(f[3].equals("anon") || f[3].equals("file"))) {
            throw new IllegalArgumentException(planFile + ":" + number + ": not a plan line: " + line);
        }
        try {
            return new PlacedRange(Long.parseUnsignedLong(f[0], 16), Long.parseUnsignedLong(f[1], 16), f[2],
                    f[3].equals("anon") ? null : Path.of(f[5]), Long.parseUnsignedLong(f[4], 16), f[6]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(planFile + ":" + number + ": not a plan line: " + line, e);
        }
    }
}
