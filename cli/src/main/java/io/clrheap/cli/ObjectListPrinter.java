package io.clrheap.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.report.TypeNames;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

/**
 * {@code walk --objects}: one line per object in the answer key's {@code objects.tsv} format (docs/reports.md): address,
 * MT, unaligned size, generation ({@code gen0}, {@code gen1}, {@code gen2}, {@code loh}, {@code poh}, {@code frozen}),
 * heap, kind ({@code object} or {@code free}) and type, tab-separated; or with {@code --json} an array of objects with
 * the same fields. The same for every engine.
 */
final class ObjectListPrinter {

    private final PrintWriter out;
    private final TypeNames names;
    private final long freeMethodTable;
    private final JsonGenerator json;
    private final StringBuilder line = new StringBuilder(128);

    ObjectListPrinter(PrintWriter out, boolean json, TypeNames names, long freeMethodTable) throws IOException {
        this.out = out;
        this.names = names;
        this.freeMethodTable = freeMethodTable;
        this.json = json ? new ObjectMapper().getFactory().createGenerator(out) : null;
        if (this.json != null) {
            this.json.writeStartArray();
        } else {
            out.println("address\tmt\tsize\tgeneration\theap\tkind\ttype");
        }
    }

    void object(long address, long mt, long size, Region region) {
        if (json == null) {
            line.setLength(0);
            line.append("0x").append(Long.toHexString(address)).append('\t').append("0x").append(Long.toHexString(mt))
                    .append('\t').append(size).append('\t').append(region == null ? "unknown" : region.kind().id())
                    .append('\t').append(region == null ? -1 : region.heap()).append('\t').append(mt == freeMethodTable ? "free" : "object")
                    .append('\t').append(names.display(mt, freeMethodTable));
            out.println(line);
            return;
        }
        try {
            json.writeStartObject();
            json.writeStringField("address", "0x" + Long.toHexString(address));
            json.writeStringField("mt", "0x" + Long.toHexString(mt));
            json.writeNumberField("size", size);
            json.writeStringField("type", names.display(mt, freeMethodTable));
            json.writeStringField("generation", region == null ? "unknown" : region.kind().id());
            json.writeNumberField("heap", region == null ? -1 : region.heap());
            json.writeStringField("kind", mt == freeMethodTable ? "free" : "object");
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void end() throws IOException {
        if (json != null) {
            json.writeEndArray();
            json.flush();
            out.println();
        }
        out.flush();
    }
}
