package io.clrheap.dac.com;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;

/**
 * What the upcalls of our COM objects write through the native side's out-pointers, each returning the HRESULT to give
 * back (never throwing: an exception must not leave an upcall).
 */
public final class OutParameters {

    private OutParameters() {
    }

    /** {@code *out = value} (4 bytes): S_OK, or E_POINTER for a NULL out-pointer. */
    public static int putInt(MemorySegment out, int value) {
        if (out.address() == 0) {
            return Hresult.E_POINTER;
        }
        out.reinterpret(4).set(ValueLayout.JAVA_INT, 0, value);
        return Hresult.S_OK;
    }

    /** {@code *out = value} (8 bytes): S_OK, or E_POINTER for a NULL out-pointer. */
    public static int putLong(MemorySegment out, long value) {
        if (out.address() == 0) {
            return Hresult.E_POINTER;
        }
        out.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, value);
        return Hresult.S_OK;
    }

    /**
     * {@code IUnknown::QueryInterface}: {@code *out} = the object implementing {@code iid} among {@code interfaces}
     * (S_OK), else NULL and E_NOINTERFACE.
     */
    public static int queryInterface(MemorySegment iid, MemorySegment out, Map<Guid, MemorySegment> interfaces) {
        try {
            MemorySegment result = out.reinterpret(8);
            MemorySegment found = interfaces.get(Guid.read(iid));
            result.set(ValueLayout.ADDRESS, 0, found == null ? MemorySegment.NULL : found);
            return found == null ? Hresult.E_NOINTERFACE : Hresult.S_OK;
        } catch (RuntimeException e) {
            return Hresult.E_FAIL;
        }
    }
}
