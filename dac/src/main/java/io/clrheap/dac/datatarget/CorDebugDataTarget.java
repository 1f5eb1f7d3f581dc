package io.clrheap.dac.datatarget;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.clrheap.dac.com.ComObject;
import io.clrheap.dac.com.Guid;
import io.clrheap.dac.com.Hresult;
import io.clrheap.dac.com.OutParameters;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;

/**
 * What the DAC's debugger interface ({@code DacDbiInterfaceInstance}, dacdbiinterface.h) is given: an
 * {@code ICorDebugDataTarget} (cordebug.idl: QueryInterface, AddRef, Release, GetPlatform, ReadVirtual,
 * GetThreadContext) over the same reads, an {@code IAllocator} (Alloc, Free: plain C++ virtuals, backed by libc's
 * malloc and free) and an {@code IMetaDataLookup} that has no metadata to give (the heap walk needs none).
 */
public final class CorDebugDataTarget {

    public static final Guid IID_ICORDEBUGDATATARGET = Guid.parse("fe06dc28-49fb-4636-a4a3-e80db4ae116c");
    /** CORDB_PLATFORM_POSIX_AMD64 (cordebug.idl) */
    private static final int PLATFORM_POSIX_AMD64 = 8;

    private final TargetReads reads;
    private final ComObject target;
    private final ComObject allocator;
    private final ComObject metadataLookup;
    private final MethodHandle malloc;
    private final MethodHandle free;

    public CorDebugDataTarget(TargetReads reads, Arena arena) {
        this.reads = reads;
        Linker linker = Linker.nativeLinker();
        this.malloc = linker.downcallHandle(linker.defaultLookup().findOrThrow("malloc"), FunctionDescriptor.of(ADDRESS, JAVA_LONG));
        this.free = linker.downcallHandle(linker.defaultLookup().findOrThrow("free"), FunctionDescriptor.ofVoid(ADDRESS));
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            FunctionDescriptor thisOnly = FunctionDescriptor.of(JAVA_INT, ADDRESS);
            MethodHandle notImpl = MethodHandles.dropArguments(MethodHandles.constant(int.class, Hresult.E_NOTIMPL), 0, MemorySegment.class);
            this.target = ComObject.builder(arena)
                    .slot(bind(l, "queryInterface", int.class, MemorySegment.class, MemorySegment.class, MemorySegment.class),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS))
                    .slot(bind(l, "addRef", int.class, MemorySegment.class), thisOnly)
                    .slot(bind(l, "addRef", int.class, MemorySegment.class), thisOnly)
                    .slot(bind(l, "platform", int.class, MemorySegment.class, MemorySegment.class), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS))
                    .slot(bind(l, "readVirtual", int.class, MemorySegment.class, long.class, MemorySegment.class, int.class, MemorySegment.class),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS))
                    .slot(ClrDataTarget.notImplemented(notImpl, int.class, int.class, int.class, MemorySegment.class),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS)) // GetThreadContext
                    .build();
            this.allocator = ComObject.builder(arena)
                    .slot(bind(l, "alloc", MemorySegment.class, MemorySegment.class, long.class), FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG))
                    .slot(bind(l, "release", void.class, MemorySegment.class, MemorySegment.class), FunctionDescriptor.ofVoid(ADDRESS, ADDRESS))
                    .build();
            this.metadataLookup = ComObject.builder(arena)
                    .slot(bind(l, "lookupMetaData", MemorySegment.class, MemorySegment.class, long.class, MemorySegment.class),
                            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, ADDRESS))
                    .build();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private MethodHandle bind(MethodHandles.Lookup lookup, String name, Class<?> returns, Class<?>... parameters) throws ReflectiveOperationException {
        return lookup.findVirtual(CorDebugDataTarget.class, name, MethodType.methodType(returns, parameters)).bindTo(this);
    }

    public MemorySegment address() {
        return target.address();
    }

    public MemorySegment allocator() {
        return allocator.address();
    }

    public MemorySegment metadataLookup() {
        return metadataLookup.address();
    }

    private int queryInterface(MemorySegment self, MemorySegment iid, MemorySegment out) {
        return OutParameters.queryInterface(iid, out, Map.of(ClrDataTarget.IID_IUNKNOWN, target.address(), IID_ICORDEBUGDATATARGET,
                target.address()));
    }

    private int addRef(MemorySegment self) {
        return 1;
    }

    private int platform(MemorySegment self, MemorySegment out) {
        return OutParameters.putInt(out, PLATFORM_POSIX_AMD64);
    }

    private int readVirtual(MemorySegment self, long address, MemorySegment buffer, int requested, MemorySegment done) {
        return reads.readVirtual(address, buffer, requested, done);
    }

    private MemorySegment alloc(MemorySegment self, long size) {
        try {
            return (MemorySegment) malloc.invokeExact(size);
        } catch (Throwable t) {
            return MemorySegment.NULL;
        }
    }

    private void release(MemorySegment self, MemorySegment block) {
        try {
            free.invokeExact(block);
        } catch (Throwable t) {
            // nothing to do: a leak in a child process that ends soon
        }
    }

    /** LookupMetaData(VMPTR_PEAssembly, bool&): no metadata (NULL); the heap walk does not ask. */
    private MemorySegment lookupMetaData(MemorySegment self, long peAssembly, MemorySegment isNgen) {
        return MemorySegment.NULL;
    }
}
