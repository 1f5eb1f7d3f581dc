package io.clrheap.generator.materialize;

import com.sun.jna.LastErrorException;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Places a plan's ranges in this process (the helper): every JNA call of the helper is here, so that the helper's
 * main can tell a missing JNA (a {@link LinkageError} when this class loads) from any other failure.
 */
final class MemoryPlacer {

    /** The most one pread copies (Linux copies at most 0x7ffff000 bytes per call). */
    private static final long MAX_READ = 1 << 30;

    private MemoryPlacer() {
    }

    /** Maps every range at its address, in plan order; refuses (without mapping over anything) an address that is taken. */
    static void place(List<PlacedRange> ranges, Path memory) throws IOException, MaterializeHelper.AddressTaken {
        int image = -1;
        try {
            for (PlacedRange r : ranges) {
                if (r.anonymous()) {
                    if (image < 0) {
                        image = LibC.open(memory.toString(), LibC.O_RDONLY | LibC.O_CLOEXEC);
                    }
                    mapAt(r, LibC.PROT_READ | LibC.PROT_WRITE, LibC.MAP_PRIVATE | LibC.MAP_ANONYMOUS, -1, 0);
                    fill(r, image, memory);
                    if (r.protection() != (LibC.PROT_READ | LibC.PROT_WRITE)) {
                        LibC.mprotect(new Pointer(r.start()), r.length(), r.protection());
                    }
                } else {
                    int fd = LibC.open(r.file().toString(), LibC.O_RDONLY | LibC.O_CLOEXEC);
                    try {
                        mapFile(r, fd);
                    } finally {
                        LibC.close(fd);
                    }
                }
            }
        } catch (LastErrorException e) {
            throw new IOException("placing the emulated memory failed: errno " + e.getErrorCode() + " (" + e.getMessage() + ")", e);
        } finally {
            if (image >= 0) {
                LibC.close(image);
            }
        }
    }

    private static void mapFile(PlacedRange r, int fd) throws MaterializeHelper.AddressTaken {
        try {
            mapAt(r, r.protection(), LibC.MAP_PRIVATE, fd, r.offset());
        } catch (LastErrorException e) {
            boolean exec = (r.protection() & LibC.PROT_EXEC) != 0;
            if (!exec || e.getErrorCode() != LibC.EPERM && e.getErrorCode() != LibC.EACCES) {
                throw e;
            }
            // a file system mounted noexec refuses executable mappings: the bytes are what matter, not running them
            System.err.println(MaterializeHelper.SAYS + "note: " + r.file().getParent() + " does not allow executable mappings (noexec); "
                    + r.describe() + " is mapped without execute permission");
            mapAt(r, r.protection() & ~LibC.PROT_EXEC, LibC.MAP_PRIVATE, fd, r.offset());
        }
    }

    private static void mapAt(PlacedRange r, int prot, int flags, int fd, long offset) throws MaterializeHelper.AddressTaken {
        Pointer got;
        try {
            got = LibC.mmap(new Pointer(r.start()), r.length(), prot, flags | LibC.MAP_FIXED_NOREPLACE, fd, offset);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == LibC.EEXIST) {
                throw MaterializeHelper.taken(r);
            }
            throw e;
        }
        if (Pointer.nativeValue(got) != r.start()) {
            // a kernel older than 4.17 takes MAP_FIXED_NOREPLACE for a hint and maps elsewhere when the address is taken
            LibC.munmap(got, r.length());
            throw MaterializeHelper.taken(r);
        }
    }

    /** Copies the range's bytes from the image file into the memory just mapped. */
    private static void fill(PlacedRange r, int fd, Path memory) throws IOException {
        long done = 0;
        while (done < r.length()) {
            long n;
            try {
                n = LibC.pread(fd, new Pointer(r.start() + done), Math.min(MAX_READ, r.length() - done), r.offset() + done);
            } catch (LastErrorException e) {
                if (e.getErrorCode() == LibC.EINTR) {
                    continue;
                }
                throw e;
            }
            if (n <= 0) {
                throw new IOException(String.format(Locale.ROOT, "%s ends at byte 0x%x: the bytes of %s are not all there", memory,
                        r.offset() + done, r.describe()));
            }
            done += n;
        }
    }

}
