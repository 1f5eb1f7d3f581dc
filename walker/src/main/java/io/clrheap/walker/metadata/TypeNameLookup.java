package io.clrheap.walker.metadata;

/** The answer of {@link MethodTableNames#lookup}: a name, or why there is none and where that was found. */
public sealed interface TypeNameLookup {

    /**
     * @param name         the DAC's spelling, as SOS prints it, e.g.
     *                     {@code System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreLib],[System.Object, System.Private.CoreLib]]}
     * @param bulkTypeName the spelling of the runtime's GCBulkType events (a heap snapshot's {@code live-objects.txt}),
     *                     e.g. {@code System.Collections.Generic.Dictionary`2[System.String,System.Object]}
     */
    record Named(String name, String bulkTypeName) implements TypeNameLookup {
    }

    /**
     * @param address the address whose read failed or whose bytes are corrupt (0 when none applies)
     * @param reason  what is missing or wrong, e.g. the module whose image is not in the dump
     * @param corrupt the metadata is in the dump but corrupt (a problem of the dump), not merely missing (a trimmed dump)
     */
    record Unnamed(long address, String reason, boolean corrupt) implements TypeNameLookup {
    }

    /** The name, or null. */
    default String nameOrNull() {
        return this instanceof Named n ? n.name() : null;
    }
}
