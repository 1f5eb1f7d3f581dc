package io.clrheap.dac.library;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.clrheap.dac.com.ComPointer;
import io.clrheap.dac.com.Guid;
import io.clrheap.dac.com.Hresult;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * Microsoft's DAC, {@code libmscordaccore.so}, loaded into this process: {@code dlopen}, {@code DllMain(handle,
 * DLL_PROCESS_ATTACH, NULL)} (which initialises the DAC's PAL; no other set-up is needed), then its two factories,
 * {@code CLRDataCreateInstance} and {@code DacDbiInterfaceInstance}.
 *
 * <p>A DAC that meets memory it does not expect may end this process with SIGSEGV: load it only in a process that
 * may die ({@link io.clrheap.dac.DacHostProcess} runs it in a child JVM).
 */
public final class DacLibrary {

    /** xclrdata.idl */
    public static final Guid IID_IXCLRDATAPROCESS = Guid.parse("5c552ab6-fc09-4cb3-8e36-22fa03c798b7");
    private static final int RTLD_NOW = 2;
    private static final int DLL_PROCESS_ATTACH = 1;

    private final Path path;
    private final Arena arena;
    private final MethodHandle createInstance;
    private final MethodHandle dbiInstance;

    private DacLibrary(Path path, Arena arena, MethodHandle createInstance, MethodHandle dbiInstance) {
        this.path = path;
        this.arena = arena;
        this.createInstance = createInstance;
        this.dbiInstance = dbiInstance;
    }

    /** Loads the DAC at {@code path} and runs its DllMain. */
    public static DacLibrary load(Path path, Arena arena) throws DacException {
        Linker linker = Linker.nativeLinker();
        MethodHandle dlopen = linker.downcallHandle(linker.defaultLookup().findOrThrow("dlopen"), FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
        MethodHandle dlsym = linker.downcallHandle(linker.defaultLookup().findOrThrow("dlsym"), FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        MethodHandle dlerror = linker.downcallHandle(linker.defaultLookup().findOrThrow("dlerror"), FunctionDescriptor.of(ADDRESS));
        try {
            MemorySegment handle = (MemorySegment) dlopen.invokeExact(arena.allocateFrom(path.toAbsolutePath().toString()), RTLD_NOW);
            if (handle.address() == 0) {
                MemorySegment message = (MemorySegment) dlerror.invokeExact();
                throw new DacException("cannot load " + path + ": "
                        + (message.address() == 0 ? "dlopen failed" : message.reinterpret(4096).getString(0)));
            }
            MemorySegment dllMain = symbol(dlsym, handle, "DllMain", path, arena);
            MemorySegment create = symbol(dlsym, handle, "CLRDataCreateInstance", path, arena);
            MemorySegment dbi = symbol(dlsym, handle, "DacDbiInterfaceInstance", path, arena);
            int attached = (int) linker.downcallHandle(dllMain, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS))
                    .invokeExact(handle, DLL_PROCESS_ATTACH, MemorySegment.NULL);
            if (attached == 0) {
                throw new DacException(path + ": DllMain(DLL_PROCESS_ATTACH) returned FALSE");
            }
            return new DacLibrary(path, arena,
                    linker.downcallHandle(create, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
                    linker.downcallHandle(dbi, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS)));
        } catch (DacException e) {
            throw e;
        } catch (Throwable t) {
            throw new DacException("cannot load " + path + ": " + t, t);
        }
    }

    private static MemorySegment symbol(MethodHandle dlsym, MemorySegment handle, String name, Path path, Arena arena) throws Throwable {
        MemorySegment s = (MemorySegment) dlsym.invokeExact(handle, arena.allocateFrom(name));
        if (s.address() == 0) {
            throw new DacException(path + " does not export " + name + ": not a DAC (libmscordaccore.so)");
        }
        return s;
    }

    public Path path() {
        return path;
    }

    /** {@code CLRDataCreateInstance(IID_IXCLRDataProcess, target, &out)}: the DAC's process interface. */
    public ComPointer createInstance(MemorySegment clrDataTarget) throws DacException {
        MemorySegment iid = arena.allocate(Guid.SIZE);
        IID_IXCLRDATAPROCESS.write(iid);
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        int hr;
        try {
            hr = (int) createInstance.invokeExact(iid, clrDataTarget, out);
        } catch (Throwable t) {
            throw new DacException("CLRDataCreateInstance: " + t, t);
        }
        if (Hresult.failed(hr)) {
            throw new DacException("CLRDataCreateInstance failed: " + Hresult.describe(hr)
                    + (hr == Hresult.CORDBG_E_MISSING_DEBUGGER_EXPORTS
                    ? " (the DAC found no g_dacTable: the runtime module's ELF headers, .dynamic or the table are not in the dump)" : ""));
        }
        return new ComPointer(out.get(ValueLayout.ADDRESS, 0), "IXCLRDataProcess");
    }

    /** {@code DacDbiInterfaceInstance(target, runtimeBase, allocator, metadataLookup, &out)}: the debugger's interface. */
    public ComPointer dbiInstance(MemorySegment corDebugTarget, long runtimeBase, MemorySegment allocator, MemorySegment lookup)
            throws DacException {
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        int hr;
        try {
            hr = (int) dbiInstance.invokeExact(corDebugTarget, runtimeBase, allocator, lookup, out);
        } catch (Throwable t) {
            throw new DacException("DacDbiInterfaceInstance: " + t, t);
        }
        if (Hresult.failed(hr)) {
            throw new DacException("DacDbiInterfaceInstance failed: " + Hresult.describe(hr));
        }
        return new ComPointer(out.get(ValueLayout.ADDRESS, 0), "IDacDbiInterface");
    }
}
