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
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.Locale;

/**
 * The data target the DAC reads a dump through: {@code ICLRDataTarget} (clrdata.idl) over a {@link TargetReads}, with
 * {@code ICLRRuntimeLocator} beside it so the DAC need not find the runtime module by name.
 *
 * <p>What the 9.0.1 DAC calls, observed: QueryInterface (for ICLRDataTarget3 and ICLRRuntimeLocator), GetMachineType,
 * GetPointerSize, GetRuntimeBase or GetImageBase("libcoreclr.so"), ReadVirtual. Everything else answers E_NOTIMPL.
 */
public final class ClrDataTarget {

    /** clrdata.idl */
    public static final Guid IID_IUNKNOWN = Guid.parse("00000000-0000-0000-c000-000000000046");
    public static final Guid IID_ICLRDATATARGET = Guid.parse("3e11ccee-d08b-43e5-af01-32717a64da03");
    public static final Guid IID_ICLRRUNTIMELOCATOR = Guid.parse("b760bf44-9377-4597-8be7-58083bdc5146");
    /** IMAGE_FILE_MACHINE_AMD64 */
    private static final int MACHINE_AMD64 = 0x8664;

    private final TargetReads reads;
    private final long runtimeBase;
    private final String runtimeFileName;
    private final ComObject target;
    private final ComObject locator;

    /**
     * @param reads           the dump's memory
     * @param runtimeBase     where the runtime module's file-offset-0 mapping starts
     * @param runtimeFileName its file name ({@code libcoreclr.so}, or a single-file host's)
     */
    public ClrDataTarget(TargetReads reads, long runtimeBase, String runtimeFileName, Arena arena) {
        this.reads = reads;
        this.runtimeBase = runtimeBase;
        this.runtimeFileName = runtimeFileName;
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            FunctionDescriptor thisOnly = FunctionDescriptor.of(JAVA_INT, ADDRESS);
            FunctionDescriptor onePointer = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
            MethodHandle notImpl = MethodHandles.dropArguments(MethodHandles.constant(int.class, Hresult.E_NOTIMPL), 0,
                    MemorySegment.class);
            this.target = ComObject.builder(arena)
                    .slot(bind(l, "queryInterface", MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, MemorySegment.class)),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS))
                    .slot(bind(l, "addRef", MethodType.methodType(int.class, MemorySegment.class)), thisOnly)
                    .slot(bind(l, "addRef", MethodType.methodType(int.class, MemorySegment.class)), thisOnly) // Release
                    .slot(bind(l, "machineType", MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class)), onePointer)
                    .slot(bind(l, "pointerSize", MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class)), onePointer)
                    .slot(bind(l, "imageBase", MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, MemorySegment.class)),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS))
                    .slot(bind(l, "readVirtual", MethodType.methodType(int.class, MemorySegment.class, long.class, MemorySegment.class, int.class, MemorySegment.class)),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS))
                    .slot(notImplemented(notImpl, long.class, MemorySegment.class, int.class, MemorySegment.class),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS)) // WriteVirtual
                    .slot(notImplemented(notImpl, int.class, int.class, MemorySegment.class),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS)) // GetTLSValue
                    .slot(notImplemented(notImpl, int.class, int.class, long.class),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_LONG)) // SetTLSValue
                    .slot(notImplemented(notImpl, MemorySegment.class), onePointer) // GetCurrentThreadID
                    .slot(notImplemented(notImpl, int.class, int.class, int.class, MemorySegment.class),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS)) // GetThreadContext
                    .slot(notImplemented(notImpl, int.class, int.class, MemorySegment.class),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS)) // SetThreadContext
                    .slot(notImplemented(notImpl, int.class, int.class, MemorySegment.class, int.class, MemorySegment.class),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS)) // Request
                    .build();
            this.locator = ComObject.builder(arena)
                    .slot(bind(l, "queryInterface", MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, MemorySegment.class)),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS))
                    .slot(bind(l, "addRef", MethodType.methodType(int.class, MemorySegment.class)), thisOnly)
                    .slot(bind(l, "addRef", MethodType.methodType(int.class, MemorySegment.class)), thisOnly)
                    .slot(bind(l, "runtimeBase", MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class)), onePointer)
                    .build();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private MethodHandle bind(MethodHandles.Lookup lookup, String name, MethodType type) throws ReflectiveOperationException {
        return lookup.findVirtual(ClrDataTarget.class, name, type).bindTo(this);
    }

    /** A slot that answers E_NOTIMPL whatever it is given. */
    static MethodHandle notImplemented(MethodHandle notImpl, Class<?>... arguments) {
        return MethodHandles.dropArguments(notImpl, 1, arguments);
    }

    /** The ICLRDataTarget to hand to CLRDataCreateInstance. */
    public MemorySegment address() {
        return target.address();
    }

    private int queryInterface(MemorySegment self, MemorySegment iid, MemorySegment out) {
        return OutParameters.queryInterface(iid, out, Map.of(IID_IUNKNOWN, target.address(), IID_ICLRDATATARGET, target.address(),
                IID_ICLRRUNTIMELOCATOR, locator.address()));
    }

    private int addRef(MemorySegment self) {
        return 1; // the objects live as long as the arena; counts are not kept
    }

    private int machineType(MemorySegment self, MemorySegment out) {
        return OutParameters.putInt(out, MACHINE_AMD64);
    }

    private int pointerSize(MemorySegment self, MemorySegment out) {
        return OutParameters.putInt(out, 8);
    }

    private int runtimeBase(MemorySegment self, MemorySegment out) {
        return OutParameters.putLong(out, runtimeBase);
    }

    /** GetImageBase(LPCWSTR name, CLRDATA_ADDRESS* base): the runtime module by its file name (UTF-16, NUL-ended). */
    private int imageBase(MemorySegment self, MemorySegment name, MemorySegment out) {
        try {
            String requested = utf16(name);
            String file = requested.substring(requested.lastIndexOf('/') + 1);
            if (file.equalsIgnoreCase(runtimeFileName) || file.toLowerCase(Locale.ROOT).startsWith("libcoreclr")) {
                return OutParameters.putLong(out, runtimeBase);
            }
            return Hresult.E_FAIL;
        } catch (Throwable t) {
            return Hresult.E_FAIL;
        }
    }

    private static String utf16(MemorySegment name) {
        MemorySegment s = name.reinterpret(2 * 4096);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 4096; i++) {
            char c = s.get(ValueLayout.JAVA_CHAR_UNALIGNED, 2L * i);
            if (c == 0) {
                break;
            }
            b.append(c);
        }
        return b.toString();
    }

    /** ReadVirtual(address, buffer, bytesRequested, bytesRead*): S_OK with the bytes present, E_FAIL when none are. */
    private int readVirtual(MemorySegment self, long address, MemorySegment buffer, int requested, MemorySegment done) {
        return reads.readVirtual(address, buffer, requested, done);
    }
}
