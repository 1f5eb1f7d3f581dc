package io.clrheap.walker.graph;

/**
 * A root: a GC handle, a finalization queue slot, a thread's stack slot or register ({@link RootKind#STACK}), or a
 * thread's thread-static array ({@link RootKind#THREAD_STATIC}).
 *
 * @param kind      what holds it
 * @param address   the handle (its slot's address), the finalization queue slot, or the stack slot; 0 for a register
 * @param target    the object it holds (for an interior pointer on a stack: the object containing it)
 * @param secondary a dependent handle's secondary object (alive while {@code target} is), else 0
 * @param heap      the heap whose handle table or finalization queue holds it; -1 for a stack root
 * @param stack     where on which thread a stack or thread-static root is; null for the other kinds
 */
public record Root(RootKind kind, long address, long target, long secondary, int heap, StackSlot stack) {

    /** A handle or finalization queue root. */
    public Root(RootKind kind, long address, long target, long secondary, int heap) {
        this(kind, address, target, secondary, heap, null);
    }

    /** A stack root found by the conservative scan. */
    public static Root onStack(StackSlot slot, long object) {
        return new Root(RootKind.STACK, slot.register() == null ? slot.address() : 0, object, 0, -1, slot);
    }

    /** A thread's thread-static array, referenced from {@code slot} (inside its ThreadLocalData). */
    public static Root threadStatics(StackSlot slot, long object) {
        return new Root(RootKind.THREAD_STATIC, slot.address(), object, 0, -1, slot);
    }

    /** Whether the GC pins what it holds: pinned and async-pinned handles. */
    public boolean pinned() {
        return kind == RootKind.PINNED || kind == RootKind.ASYNC_PINNED;
    }

    /** Whether it is weak: the weak handles and a dependent handle's primary. */
    public boolean weak() {
        return switch (kind) {
            case WEAK_SHORT, WEAK_LONG, DEPENDENT, WEAK_NATIVE_COM, WEAK_INTERIOR_POINTER -> true;
            default -> false;
        };
    }

    /** Whether a stack root's word points inside its object rather than at its start. */
    public boolean interior() {
        return kind == RootKind.STACK && stack.value() != target;
    }

    /** The record's components, the addresses in hex. */
    @Override
    public String toString() {
        return String.format("Root[kind=%s, address=0x%x, target=0x%x, secondary=0x%x, heap=%d, stack=%s]", kind, address, target, secondary, heap, stack);
    }
}
