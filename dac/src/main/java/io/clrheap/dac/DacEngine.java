package io.clrheap.dac;

import io.clrheap.walker.symbols.ElfDynamicSymbols;
import io.clrheap.walker.runtime.Target;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.walk.DacWalkKind;

/**
 * Microsoft's DAC as a reader of dumps: a {@code libmscordaccore.so} whose build is known, and the two heap walks
 * it can make of a dump, each run in a child process ({@link DacHostProcess}).
 *
 * <pre>{@code
 * DacEngine dac = DacEngine.open(Path.of("libmscordaccore.so"));
 * dac.requireBuildOf(target);                                  // refuses a DAC of another build
 * DacHeap heap = dac.walk(dumpFile, target, DacWalkKind.SOS, (address, mt, size, region) -> ...);
 * }</pre>
 */
public final class DacEngine {

    /** A bound on the objects the DAC's heap walker may return (a DAC looping on a damaged heap must end). */
    public static final long MAX_OBJECTS = 1L << 33;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);

    private final Path path;
    private final DacBuild build;

    private DacEngine(Path path, DacBuild build) {
        this.path = path;
        this.build = build;
    }

    /** The exports that make a library a DAC (the runtime module itself carries the same version string). */
    private static final List<String> EXPORTS = List.of("CLRDataCreateInstance", "DacDbiInterfaceInstance", "DllMain");

    /**
     * Opens the DAC at {@code path}: not loaded here (that happens in the child process), only read — its version
     * string, and its ELF dynamic symbols, which must export the DAC's entry points.
     */
    public static DacEngine open(Path path) throws DacException, IOException {
        DacBuild build = DacBuild.of(path).orElseThrow(() -> new DacException(path
                + " has no @(#)Version string: not a DAC (libmscordaccore.so) of a .NET runtime"));
        ElfDynamicSymbols symbols;
        try {
            symbols = ElfDynamicSymbols.fromFile(path, 0);
        } catch (IOException | RuntimeException e) {
            throw new DacException(path + " is not an ELF shared library the DAC could be (" + e.getMessage() + ")", e);
        }
        for (String name : EXPORTS) {
            if (symbols.lookup(name).isEmpty()) {
                throw new DacException(path + " does not export " + name + ": not a DAC (libmscordaccore.so)"
                        + (path.getFileName().toString().startsWith("libcoreclr") ? "; the DAC lies beside libcoreclr.so" : ""));
            }
        }
        return new DacEngine(path, build);
    }

    public Path path() {
        return path;
    }

    public DacBuild build() {
        return build;
    }

    /**
     * Refuses a DAC of another build than the dump's runtime, naming both. A dump that does not say its build (no version
     * string) is of one of the known builds that share its layout ({@code 9.0.1, 9.0.5 or 9.0.7}): the DAC of any of
     * them is taken.
     */
    public void requireBuildOf(Target target) throws DacException {
        boolean said = target.identity().isPresent();
        List<String> builds = said ? List.of(target.version()) : List.of(target.version().split(", | or "));
        if (!builds.contains(build.runtimeVersion())) {
            throw new DacException("the DAC " + path + " is .NET " + build + ", the dump's runtime is .NET " + target.version()
                    + " (" + target.module().fileName() + "): a DAC reads only dumps of its own build; use the "
                    + "libmscordaccore.so of .NET " + target.version());
        }
    }

    /**
     * Walks {@code dump} (whose runtime module {@code target} found) through the DAC, in a child process; objects go to
     * {@code objects} as they come, the rest is in the returned heap.
     *
     * @throws DacCrashException when the DAC crashed, naming the call
     * @throws DacException      when the DAC could not be loaded or could not find the GC heap at all
     */
    public DacHeap walk(Path dump, Target target, DacWalkKind kind, DacObjectSink objects, Duration timeout)
            throws DacException, IOException, InterruptedException {
        requireBuildOf(target);
        DacHeap heap = new DacHeap(objects);
        DacHostProcess.run(new DacHostProcess.Request(path, dump, target.module().base(), target.module().fileName(), kind, MAX_OBJECTS, timeout), heap);
        return heap;
    }

    /**
     * Walks the running process {@code pid} (whose runtime module {@code target} found) through the DAC, in a child
     * process reading its memory with process_vm_readv (the same rights as {@code walk --pid}). The process runs on
     * meanwhile unless it was suspended.
     */
    public DacHeap walkProcess(int pid, Target target, DacWalkKind kind, DacObjectSink objects, Duration timeout)
            throws DacException, IOException, InterruptedException {
        return walk(Path.of(io.clrheap.dac.host.DacHost.PID_PREFIX + pid), target, kind, objects, timeout);
    }

}
