package io.clrheap.dac.sos;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_CHAR;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.clrheap.dac.library.CallTrace;
import io.clrheap.dac.com.ComPointer;
import io.clrheap.dac.com.Guid;
import io.clrheap.dac.com.Hresult;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.clrheap.dac.library.DacCallException;

/**
 * The SOS interfaces of the DAC ({@code ISOSDacInterface}, {@code 8} and {@code 12}; method order from sospriv.idl,
 * dotnet/runtime src/coreclr/inc), the calls a heap walk makes, with their answers decoded (dacprivate.h). Every call
 * is announced to a {@link CallTrace} first. Not thread-safe: one walk at a time.
 */
public final class SosDac {

    public static final Guid IID_ISOSDACINTERFACE = Guid.parse("436f00f2-b42a-4b9f-870c-e73db66ae930");
    public static final Guid IID_ISOSDACINTERFACE8 = Guid.parse("c12f35a9-e55c-4520-a894-b3dc5165dfce");
    public static final Guid IID_ISOSDACINTERFACE12 = Guid.parse("1b93bacc-8ca4-432d-943a-3e6e7ec0b0a3");

    /** IXCLRDataProcess::Flush, its first method (xclrdata.idl) */
    private static final int FLUSH = 3;
    // ISOSDacInterface vtable slots (IUnknown is 0..2), counted in sospriv.idl
    private static final int GET_THREAD_STORE_DATA = 3;
    private static final int GET_THREAD_DATA = 17;
    private static final int GET_OBJECT_DATA = 33;
    private static final int GET_METHOD_TABLE_NAME = 36;
    private static final int GET_METHOD_TABLE_DATA = 37;
    private static final int GET_METHOD_TABLE_FIELD_DATA = 39;
    private static final int GET_FIELD_DESC_DATA = 42;
    private static final int GET_GC_HEAP_DATA = 46;
    private static final int GET_GC_HEAP_LIST = 47;
    private static final int GET_GC_HEAP_DETAILS = 48;
    private static final int GET_GC_HEAP_STATIC_DATA = 49;
    private static final int GET_HEAP_SEGMENT_DATA = 50;
    private static final int GET_USEFUL_GLOBALS = 70;
    // ISOSDacInterface8
    private static final int GET_NUMBER_GENERATIONS = 3;
    private static final int GET_GENERATION_TABLE = 4;
    private static final int GET_GENERATION_TABLE_SVR = 6;
    // ISOSDacInterface12
    private static final int GET_GLOBAL_ALLOCATION_CONTEXT = 3;

    /** A cap on anything counted by the DAC before a buffer is allocated for it. */
    public static final int MAX_HEAPS = 1024;
    private static final int MAX_GENERATIONS = 16;
    private static final int MAX_NAME_CHARS = 4096;

    private static final FunctionDescriptor ONE_POINTER = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
    private static final FunctionDescriptor ADDRESS_AND_POINTER = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS);

    private final MethodHandle flush;
    private final ComPointer sos;
    private final ComPointer sos8;
    private final ComPointer sos12;
    private final Arena arena;
    private final CallTrace trace;
    private final MethodHandle objectData;
    private final MethodHandle methodTableData;
    private final MemorySegment objectBuffer;
    /** Reused: a field listing asks once per FieldDesc, and the arena lives as long as the process. */
    private final MemorySegment fieldBuffer;

    public SosDac(ComPointer process, Arena arena, CallTrace trace) {
        this.arena = arena;
        this.trace = trace;
        this.flush = process.method(FLUSH, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        trace.enter("QueryInterface(ISOSDacInterface)", 0);
        this.sos = process.queryInterface(IID_ISOSDACINTERFACE, "ISOSDacInterface", arena);
        if (sos == null) {
            throw new IllegalStateException("the DAC's process object does not implement ISOSDacInterface");
        }
        trace.enter("QueryInterface(ISOSDacInterface8)", 0);
        this.sos8 = process.queryInterface(IID_ISOSDACINTERFACE8, "ISOSDacInterface8", arena);
        trace.enter("QueryInterface(ISOSDacInterface12)", 0);
        this.sos12 = process.queryInterface(IID_ISOSDACINTERFACE12, "ISOSDacInterface12", arena);
        this.objectData = sos.method(GET_OBJECT_DATA, ADDRESS_AND_POINTER);
        this.methodTableData = sos.method(GET_METHOD_TABLE_DATA, ADDRESS_AND_POINTER);
        this.objectBuffer = arena.allocate(SosStructs.OBJECT_DATA, 8);
        this.fieldBuffer = arena.allocate(Math.max(SosStructs.FIELD_DESC_DATA, SosStructs.METHOD_TABLE_FIELD_DATA), 8);
    }

    /**
     * {@code IXCLRDataProcess::Flush}: drops what the DAC has cached of target memory. The DAC keeps every structure it
     * has read until then, in a table that grows with each object a walk asks about; a long walk flushes now and then.
     */
    public void flush() {
        trace.enter("Flush", 0);
        try {
            int ignored = (int) flush.invokeExact(); // S_OK always: it only empties caches
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Whether ISOSDacInterface8 (generation tables with POH) is there. */
    public boolean hasGenerationTables() {
        return sos8 != null;
    }

    private static void check(String call, long argument, int hr) throws DacCallException {
        if (Hresult.failed(hr)) {
            throw new DacCallException(call, argument, hr);
        }
    }

    private static int invoke(MethodHandle h, MemorySegment a) {
        try {
            return (int) h.invokeExact(a);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static int invoke(MethodHandle h, long a, MemorySegment b) {
        try {
            return (int) h.invokeExact(a, b);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public GcHeapData gcHeapData() throws DacCallException {
        MemorySegment s = arena.allocate(SosStructs.GC_HEAP_DATA, 8);
        trace.enter("GetGCHeapData", 0);
        check("GetGCHeapData", 0, invoke(sos.method(GET_GC_HEAP_DATA, ONE_POINTER), s));
        return new GcHeapData(s.get(JAVA_INT, 0) != 0, s.get(JAVA_INT, 4) != 0, s.get(JAVA_INT, 8), s.get(JAVA_INT, 12));
    }

    public UsefulGlobals usefulGlobals() throws DacCallException {
        MemorySegment s = arena.allocate(SosStructs.USEFUL_GLOBALS, 8);
        trace.enter("GetUsefulGlobals", 0);
        check("GetUsefulGlobals", 0, invoke(sos.method(GET_USEFUL_GLOBALS, ONE_POINTER), s));
        return new UsefulGlobals(s.get(JAVA_LONG, 0), s.get(JAVA_LONG, 8), s.get(JAVA_LONG, 16), s.get(JAVA_LONG, 24), s.get(JAVA_LONG, 32));
    }

    public ThreadStoreData threadStoreData() throws DacCallException {
        MemorySegment s = arena.allocate(SosStructs.THREAD_STORE_DATA, 8);
        trace.enter("GetThreadStoreData", 0);
        check("GetThreadStoreData", 0, invoke(sos.method(GET_THREAD_STORE_DATA, ONE_POINTER), s));
        return new ThreadStoreData(s.get(JAVA_INT, 0), s.get(JAVA_INT, 4), s.get(JAVA_INT, 8), s.get(JAVA_INT, 12), s.get(JAVA_INT, 16),
                s.get(JAVA_LONG, 24), s.get(JAVA_LONG, 32), s.get(JAVA_LONG, 40));
    }

    public ThreadData threadData(long thread) throws DacCallException {
        MemorySegment s = arena.allocate(SosStructs.THREAD_DATA, 8);
        trace.enter("GetThreadData", thread);
        check("GetThreadData", thread, invoke(sos.method(GET_THREAD_DATA, ADDRESS_AND_POINTER), thread, s));
        return new ThreadData(thread, s.get(JAVA_INT, 0), s.get(JAVA_INT, 4), s.get(JAVA_INT, 8), s.get(JAVA_LONG, 16),
                s.get(JAVA_LONG, 24), s.get(JAVA_LONG, 96));
    }

    /** {@code GetGCHeapList}: the server heaps' gc_heap addresses, at most {@code count} (capped at {@link #MAX_HEAPS}). */
    public long[] heapList(int count) throws DacCallException {
        if (count < 1 || count > MAX_HEAPS) {
            throw new DacCallException("GetGCHeapList", count, Hresult.E_INVALIDARG);
        }
        MemorySegment heaps = arena.allocate(JAVA_LONG, count);
        MemorySegment needed = arena.allocate(JAVA_INT);
        trace.enter("GetGCHeapList", count);
        int hr;
        try {
            hr = (int) sos.method(GET_GC_HEAP_LIST, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS))
                    .invokeExact(count, heaps, needed);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        check("GetGCHeapList", count, hr);
        int n = Math.min(count, needed.get(JAVA_INT, 0));
        return heaps.asSlice(0, 8L * Math.max(0, n)).toArray(JAVA_LONG);
    }

    /** {@code GetGCHeapDetails(heap)} (server) or, with {@code heap} 0, {@code GetGCHeapStaticData} (workstation). */
    public GcHeapDetails heapDetails(long heap) throws DacCallException {
        MemorySegment s = arena.allocate(SosStructs.GC_HEAP_DETAILS, 8);
        int hr;
        if (heap == 0) {
            trace.enter("GetGCHeapStaticData", 0);
            hr = invoke(sos.method(GET_GC_HEAP_STATIC_DATA, ONE_POINTER), s);
            check("GetGCHeapStaticData", 0, hr);
        } else {
            trace.enter("GetGCHeapDetails", heap);
            hr = invoke(sos.method(GET_GC_HEAP_DETAILS, ADDRESS_AND_POINTER), heap, s);
            check("GetGCHeapDetails", heap, hr);
        }
        List<GenerationData> generations = new ArrayList<>();
        for (int i = 0; i < SosStructs.DAC_NUMBERGENERATIONS; i++) {
            generations.add(generation(s.asSlice(SosStructs.DETAILS_GENERATION_TABLE + i * SosStructs.GENERATION_DATA)));
        }
        return new GcHeapDetails(s.get(JAVA_LONG, 0), s.get(JAVA_LONG, 8), s.get(JAVA_LONG, 16), s.get(JAVA_LONG, 24), s.get(JAVA_LONG, 32),
                generations, s.get(JAVA_LONG, 200), s.get(JAVA_LONG, 264), s.get(JAVA_LONG, 272), s.get(JAVA_LONG, 280));
    }

    private static GenerationData generation(MemorySegment g) {
        return new GenerationData(g.get(JAVA_LONG, 0), g.get(JAVA_LONG, 8), g.get(JAVA_LONG, 16), g.get(JAVA_LONG, 24));
    }

    /** {@code ISOSDacInterface8::GetNumberGenerations}: 5 with regions (gen0..2, LOH, POH). */
    public int numberGenerations() throws DacCallException {
        if (sos8 == null) {
            return SosStructs.DAC_NUMBERGENERATIONS;
        }
        MemorySegment n = arena.allocate(JAVA_INT);
        trace.enter("GetNumberGenerations", 0);
        check("GetNumberGenerations", 0, invoke(sos8.method(GET_NUMBER_GENERATIONS, ONE_POINTER), n));
        return n.get(JAVA_INT, 0);
    }

    /**
     * {@code ISOSDacInterface8::GetGenerationTable} (workstation, {@code heap} 0) or {@code GetGenerationTableSvr}: the
     * whole generation table, POH included.
     */
    public List<GenerationData> generationTable(long heap, int count) throws DacCallException {
        if (sos8 == null) {
            throw new DacCallException("QueryInterface(ISOSDacInterface8)", 0, Hresult.E_NOINTERFACE);
        }
        if (count < 1 || count > MAX_GENERATIONS) {
            throw new DacCallException("GetGenerationTable", count, Hresult.E_INVALIDARG);
        }
        MemorySegment table = arena.allocate(SosStructs.GENERATION_DATA * count, 8);
        MemorySegment needed = arena.allocate(JAVA_INT);
        int hr;
        try {
            if (heap == 0) {
                trace.enter("GetGenerationTable", count);
                hr = (int) sos8.method(GET_GENERATION_TABLE, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS))
                        .invokeExact(count, table, needed);
            } else {
                trace.enter("GetGenerationTableSvr", heap);
                hr = (int) sos8.method(GET_GENERATION_TABLE_SVR, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS))
                        .invokeExact(heap, count, table, needed);
            }
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        check(heap == 0 ? "GetGenerationTable" : "GetGenerationTableSvr", heap, hr);
        int n = Math.min(count, needed.get(JAVA_INT, 0));
        List<GenerationData> result = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            result.add(generation(table.asSlice(i * SosStructs.GENERATION_DATA)));
        }
        return result;
    }

    public HeapSegmentData heapSegmentData(long segment) throws DacCallException {
        MemorySegment s = arena.allocate(SosStructs.HEAP_SEGMENT_DATA, 8);
        trace.enter("GetHeapSegmentData", segment);
        check("GetHeapSegmentData", segment, invoke(sos.method(GET_HEAP_SEGMENT_DATA, ADDRESS_AND_POINTER), segment, s));
        return new HeapSegmentData(s.get(JAVA_LONG, 0), s.get(JAVA_LONG, 8), s.get(JAVA_LONG, 16), s.get(JAVA_LONG, 24),
                s.get(JAVA_LONG, 32), s.get(JAVA_LONG, 40), s.get(JAVA_LONG, 48), s.get(JAVA_LONG, 56), s.get(JAVA_LONG, 64),
                s.get(JAVA_LONG, 72), s.get(JAVA_LONG, 80));
    }

    /** {@code GetObjectData}: the object's MethodTable and size, as SOS steps with them. */
    public ObjectData objectData(long object) throws DacCallException {
        MemorySegment s = objectBuffer;
        s.fill((byte) 0);
        trace.enter("GetObjectData", object);
        int hr;
        try {
            hr = (int) objectData.invokeExact(object, s);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        check("GetObjectData", object, hr);
        return new ObjectData(s.get(JAVA_LONG, 0), s.get(JAVA_INT, 8), s.get(JAVA_LONG, 16), s.get(JAVA_LONG, 24), s.get(JAVA_LONG, 40),
                s.get(JAVA_LONG, 48));
    }

    public MethodTableData methodTableData(long methodTable) throws DacCallException {
        MemorySegment s = arena.allocate(SosStructs.METHOD_TABLE_DATA, 8);
        trace.enter("GetMethodTableData", methodTable);
        int hr;
        try {
            hr = (int) methodTableData.invokeExact(methodTable, s);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        check("GetMethodTableData", methodTable, hr);
        return new MethodTableData(s.get(JAVA_INT, 0) != 0, s.get(JAVA_LONG, 8), s.get(JAVA_LONG, 16), s.get(JAVA_LONG, 24),
                Short.toUnsignedInt(s.get(JAVA_SHORT, 32)), s.get(JAVA_INT, 40), s.get(JAVA_INT, 44), s.get(JAVA_INT, 48),
                s.get(JAVA_INT, 64) != 0);
    }

    /** {@code GetMethodTableFieldData}: the class's field counts and first FieldDesc. */
    public MethodTableFieldData methodTableFieldData(long methodTable) throws DacCallException {
        MemorySegment s = fieldBuffer;
        s.fill((byte) 0);
        trace.enter("GetMethodTableFieldData", methodTable);
        check("GetMethodTableFieldData", methodTable, invoke(sos.method(GET_METHOD_TABLE_FIELD_DATA, ADDRESS_AND_POINTER), methodTable, s));
        return new MethodTableFieldData(Short.toUnsignedInt(s.get(JAVA_SHORT, 0)), Short.toUnsignedInt(s.get(JAVA_SHORT, 2)),
                Short.toUnsignedInt(s.get(JAVA_SHORT, 4)), s.get(JAVA_LONG, 8), Short.toUnsignedInt(s.get(JAVA_SHORT, 16)),
                Short.toUnsignedInt(s.get(JAVA_SHORT, 18)));
    }

    /**
     * {@code GetFieldDescData}: one FieldDesc. The DAC reads the field's signature from its module's metadata too
     * (request.cpp: {@code MetaSig tSig(pFieldDesc)}, for TokenOfType and sigType); a dump without the module's image
     * makes the call fail after the FieldDesc's own bits were filled in.
     */
    public FieldDescData fieldDescData(long fieldDesc) throws DacCallException {
        MemorySegment s = fieldBuffer;
        s.fill((byte) 0);
        trace.enter("GetFieldDescData", fieldDesc);
        check("GetFieldDescData", fieldDesc, invoke(sos.method(GET_FIELD_DESC_DATA, ADDRESS_AND_POINTER), fieldDesc, s));
        return new FieldDescData(s.get(JAVA_INT, 0), s.get(JAVA_INT, 4), s.get(JAVA_LONG, 8), s.get(JAVA_LONG, 16), s.get(JAVA_INT, 24),
                s.get(JAVA_INT, 28), s.get(JAVA_LONG, 32), Integer.toUnsignedLong(s.get(JAVA_INT, 40)), s.get(JAVA_INT, 44) != 0,
                s.get(JAVA_INT, 48) != 0, s.get(JAVA_INT, 52) != 0, s.get(JAVA_LONG, 56));
    }

    /** {@code GetMethodTableName}: the type's name from the module's metadata, or empty when the DAC has none. */
    public Optional<String> methodTableName(long methodTable) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment name = call.allocate(JAVA_CHAR, MAX_NAME_CHARS);
            MemorySegment needed = call.allocate(JAVA_INT);
            trace.enter("GetMethodTableName", methodTable);
            int hr = (int) sos.method(GET_METHOD_TABLE_NAME, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS))
                    .invokeExact(methodTable, MAX_NAME_CHARS, name, needed);
            if (Hresult.failed(hr)) {
                return Optional.empty();
            }
            int n = Math.min(MAX_NAME_CHARS, needed.get(JAVA_INT, 0));
            StringBuilder b = new StringBuilder(n);
            for (int i = 0; i < n; i++) {
                char c = name.getAtIndex(JAVA_CHAR, i);
                if (c == 0) {
                    break;
                }
                b.append(c);
            }
            return b.isEmpty() ? Optional.empty() : Optional.of(b.toString());
        } catch (Throwable t) {
            return Optional.empty();
        }
    }

    /** {@code ISOSDacInterface12::GetGlobalAllocationContext}: {ptr, limit}, or empty when the interface is absent. */
    public Optional<long[]> globalAllocationContext() throws DacCallException {
        if (sos12 == null) {
            return Optional.empty();
        }
        MemorySegment ptr = arena.allocate(JAVA_LONG);
        MemorySegment limit = arena.allocate(JAVA_LONG);
        trace.enter("GetGlobalAllocationContext", 0);
        int hr;
        try {
            hr = (int) sos12.method(GET_GLOBAL_ALLOCATION_CONTEXT, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS))
                    .invokeExact(ptr, limit);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        check("GetGlobalAllocationContext", 0, hr);
        return Optional.of(new long[] {ptr.get(JAVA_LONG, 0), limit.get(JAVA_LONG, 0)});
    }
}
