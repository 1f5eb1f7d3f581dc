package io.clrheap.layout;

/** A named number of the runtime: a flag bit, a size, a vtable slot, an alignment. */
public record Constant(String name, long value, Provenance provenance) {
}
