package io.clrheap.walker.graph;

/**
 * A root the dump holds without unwinding a stack.
 *
 * @param kind      what holds it
 * @param address   the handle (its slot's address) or the finalization queue slot
 * @param target    the object it holds
 * @param secondary a dependent handle's secondary object (alive while {@code target} is), else 0
 * @param heap      the heap whose handle table or finalization queue holds it
 */
public record Root(RootKind kind, long address, long target, long secondary, int heap) {
}
