package io.clrheap.dac;

import io.clrheap.walker.symbols.ElfDynamicSymbols;
import io.clrheap.walker.runtime.Target;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.walk.SosFieldWalk;
import io.clrheap.dac.host.DacHostJob;
import io.clrheap.dac.walk.DacWalkKind;
import io.clrheap.dac.walk.DacWalkListener;

/**
 * Microsoft's DAC as a reader of dumps: a {@code libmscordaccore.so} whose build is known, and the two heap walks
 * it can make of a dump, each run in a child process ({@link DacHostProcess}).
 *
 * <pre>{@code
 * DacEngine dac = new DacLocator(System.getenv()).engineFor(Optional.empty(), target); // the DAC of the dump's build
 * DacEngine mine = DacEngine.open(Path.of("libmscordaccore.so"));
 * mine.requireBuild(DumpBuild.of(target));                     // refuses a DAC of another build
 * DacHeap heap = dac.walk(dumpFile, target, DacWalkKind.SOS, (address, mt, size, region) -> ...);
 * }</pre>
 */
public final class DacEngine {

    /** A bound on the objects the DAC's heap walker may return (a DAC looping on a damaged heap must end). */
    public static final long MAX_OBJECTS = 1L << 33;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);

    private final Path path;
    private final DacBuild build;
    private final String how;

    private DacEngine(Path path, DacBuild build, String how) {
        this.path = path;
        this.build = build;
        this.how = how;
    }

    /** The exports that make a library a DAC (the runtime module itself carries the same version string). */
    private static final List<String> EXPORTS = List.of("CLRDataCreateInstance", "DacDbiInterfaceInstance", "DllMain");

    /**
     * Opens the DAC at {@code path}: not loaded here (that happens in the child process), only read — its version
     * string, and its ELF dynamic symbols, which must export the DAC's entry points.
     */
    public static DacEngine open(Path path) throws DacException, IOException {
        return open(path, "given");
    }

    /** As {@link #open(Path)}, saying how the DAC was found ({@link DacLocator.Located#how()}). */
    public static DacEngine open(Path path, String how) throws DacException, IOException {
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
        return new DacEngine(path, build, how);
    }

    public Path path() {
        return path;
    }

    public DacBuild build() {
        return build;
    }

    /** How the DAC was found: {@code --dac}, {@code $CLRHEAP_DAC}, {@code beside the dump's runtime module}, ... */
    public String how() {
        return how;
    }

    /** Refuses a DAC of another build than the dump's runtime ({@link DumpBuild#of(Target)}), naming both. */
    public void requireBuildOf(Target target) throws DacException {
        requireBuild(DumpBuild.of(target));
    }

    /** Refuses a DAC of another build than {@code dump}, naming both. */
    public void requireBuild(DumpBuild dump) throws DacException {
        if (!dump.matches(build)) {
            throw new DacException(DacLocator.mismatch(path, build, dump));
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
        return walk(dump, target, DumpBuild.of(target), kind, objects, timeout);
    }

    /**
     * As {@link #walk(Path, Target, DacWalkKind, DacObjectSink, Duration)} for a dump whose build the caller knows
     * better than {@code target} does (a test that started the process of a known build).
     */
    public DacHeap walk(Path dump, Target target, DumpBuild build, DacWalkKind kind, DacObjectSink objects, Duration timeout)
            throws DacException, IOException, InterruptedException {
        requireBuild(build);
        DacHeap heap = new DacHeap(objects);
        DacHostProcess.run(new DacHostProcess.Request(path, dump, target.module().base(), target.module().fileName(), DacHostJob.of(kind),
                MAX_OBJECTS, timeout, List.of(), List.of()), heap);
        return heap;
    }

    /**
     * Lists the fields of {@code methodTables} in {@code dump} through the DAC as SOS's DisplayFields does
     * ({@link SosFieldWalk}), in a child process; what the DAC answered goes to {@code listener}. The DAC reads each
     * field's signature from its module's metadata: for a dump that left the module images out, {@code imageFolders}
     * name where the mapped files are (the application's folder of the same build), as a debugger's image path does.
     *
     * @throws DacCrashException when the DAC crashed, naming the call
     */
    public void listFields(Path dump, Target target, List<Long> methodTables, List<Path> imageFolders, DacWalkListener listener,
                           Duration timeout) throws DacException, IOException, InterruptedException {
        requireBuildOf(target);
        DacHostProcess.run(new DacHostProcess.Request(path, dump, target.module().base(), target.module().fileName(), DacHostJob.FIELDS,
                MAX_OBJECTS, timeout, methodTables, imageFolders), listener);
    }

    /**
     * Walks the running process {@code pid} (whose runtime module {@code target} found) through the DAC, in a child
     * process reading its memory with process_vm_readv (the same rights as {@code walk --pid}). The process runs on
     * meanwhile unless it was suspended.
     */
    public DacHeap walkProcess(int pid, Target target, DacWalkKind kind, DacObjectSink objects, Duration timeout)
            throws DacException, IOException, InterruptedException {
        return walkProcess(pid, target, DumpBuild.of(target), kind, objects, timeout);
    }

    /** As {@link #walkProcess(int, Target, DacWalkKind, DacObjectSink, Duration)} for a process of a build the caller knows. */
    public DacHeap walkProcess(int pid, Target target, DumpBuild build, DacWalkKind kind, DacObjectSink objects, Duration timeout)
            throws DacException, IOException, InterruptedException {
        return walk(Path.of(io.clrheap.dac.host.DacHost.PID_PREFIX + pid), target, build, kind, objects, timeout);
    }

}
