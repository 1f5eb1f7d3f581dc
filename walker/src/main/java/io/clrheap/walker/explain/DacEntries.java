package io.clrheap.walker.explain;

import io.clrheap.layout.DacTable;
import io.clrheap.walker.runtime.Target;
import java.util.function.LongFunction;

/** Reads of {@code g_dacTable} entries: each the 8-byte absolute address of a runtime global, at index × 8. */
final class DacEntries {

    private DacEntries() {
    }

    static int index(Target target, String name) {
        return target.build().dacTable().indexOf(name).orElseThrow(() -> new IllegalStateException(
                "the " + target.version() + " profile has no g_dacTable index for " + name));
    }

    /** The entry for {@code name}: the address of that global; its provenance is the index's. */
    static ExplainStep entry(FieldReader reader, Target target, String name, LongFunction<String> meaning) {
        int index = index(target, name);
        DacTable.DacTableEntry e = target.build().dacTable().entries().get(name);
        return reader.raw("g_dacTable", target.module().dacTable(), "[" + index + "] " + name, 8L * index, "pointer", 8, false,
                "index " + FieldReader.source(e.provenance()), meaning);
    }
}
