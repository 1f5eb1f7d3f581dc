package io.clrheap.dac.com;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;

/**
 * An interface pointer the native side gave us (an object whose first word is its vtable): calls its slots by index.
 * Downcall handles are made once per (slot, signature) and reused.
 */
public final class ComPointer {

    private static final Map<FunctionDescriptor, MethodHandle> HANDLES = new ConcurrentHashMap<>();

    private final MemorySegment object;
    private final MemorySegment vtable;
    private final String interfaceName;

    public ComPointer(MemorySegment object, String interfaceName) {
        if (object.address() == 0) {
            throw new IllegalArgumentException(interfaceName + " pointer is NULL");
        }
        this.object = object.reinterpret(8);
        this.vtable = this.object.get(ValueLayout.ADDRESS, 0).reinterpret(8L * 256);
        this.interfaceName = interfaceName;
    }

    public MemorySegment address() {
        return object;
    }

    public String interfaceName() {
        return interfaceName;
    }

    /**
     * A handle calling slot {@code slot} with {@code this} bound: its type is {@code descriptor} without the leading
     * {@code this} address (which the descriptor must start with).
     */
    public MethodHandle method(int slot, FunctionDescriptor descriptor) {
        MemorySegment function = vtable.getAtIndex(ValueLayout.ADDRESS, slot);
        MethodHandle generic = HANDLES.computeIfAbsent(descriptor, d -> Linker.nativeLinker().downcallHandle(d));
        return generic.bindTo(function).bindTo(object);
    }

    /** {@code IUnknown::QueryInterface}: the interface {@code iid}, or null when the object refuses it. */
    public ComPointer queryInterface(Guid iid, String name, Arena arena) {
        MemorySegment id = arena.allocate(Guid.SIZE);
        iid.write(id);
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        try {
            int hr = (int) method(0, FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                    ValueLayout.ADDRESS)).invokeExact(id, out);
            MemorySegment p = out.get(ValueLayout.ADDRESS, 0);
            return Hresult.failed(hr) || p.address() == 0 ? null : new ComPointer(p, name);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
