package io.clrheap.dac.com;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * A COM object (or plain C++ object with virtual functions) implemented in Java: a pointer-sized cell holding the
 * address of a vtable whose slots are upcall stubs, in slot order. The native side calls slot {@code i} as
 * {@code (*(*obj))[i](obj, args...)}; every stub takes that {@code this} pointer first.
 *
 * <p>An exception must never leave an upcall (the JVM would end): implementations catch everything and return an
 * HRESULT.
 */
public final class ComObject {

    private final MemorySegment object;

    private ComObject(MemorySegment object) {
        this.object = object;
    }

    /** The object's address, to hand to native code. */
    public MemorySegment address() {
        return object;
    }

    /** A builder of one object's vtable, slot by slot. */
    public static Builder builder(Arena arena) {
        return new Builder(arena);
    }

    public static final class Builder {
        private final Arena arena;
        private final List<MemorySegment> slots = new ArrayList<>();

        private Builder(Arena arena) {
            this.arena = arena;
        }

        /** Adds the next slot: {@code target} takes {@code this} (an address) and then the slot's arguments. */
        public Builder slot(MethodHandle target, FunctionDescriptor descriptor) {
            slots.add(Linker.nativeLinker().upcallStub(target, descriptor, arena));
            return this;
        }

        public ComObject build() {
            MemorySegment vtable = arena.allocate(ValueLayout.ADDRESS, slots.size());
            for (int i = 0; i < slots.size(); i++) {
                vtable.setAtIndex(ValueLayout.ADDRESS, i, slots.get(i));
            }
            MemorySegment object = arena.allocate(ValueLayout.ADDRESS, 2);
            object.set(ValueLayout.ADDRESS, 0, vtable);
            return new ComObject(object);
        }
    }
}
