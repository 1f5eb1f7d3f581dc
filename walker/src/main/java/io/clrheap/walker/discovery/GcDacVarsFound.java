package io.clrheap.walker.discovery;

/** {@code *g_gcDacGlobals} was read: the GcDacVars the GC publishes for the DAC is at {@code address}; its fields follow. */
public record GcDacVarsFound(long address) implements DiscoveryEvent {
}
