package io.clrheap.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.fields.ObjectFields;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.report.TypeNames;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

/**
 * {@code walk --objects}: one line per object in the answer key's {@code objects.tsv} format (docs/reports.md): address,
 * MT, unaligned size, generation ({@code gen0}, {@code gen1}, {@code gen2}, {@code loh}, {@code poh}, {@code frozen}),
 * heap, kind ({@code object} or {@code free}) and type, tab-separated; or with {@code --json} an array of objects with
 * the same fields. The same for every engine. With {@code --strings}, a last column {@code value}: each string's text
 * (one line: control characters escaped, cut at {@value StringStatReport#SHOWN} characters with "…"; in JSON whole up
 * to {@value ObjectFields#MAX_TEXT} characters).
 */
final class ObjectListPrinter {

    private final PrintWriter out;
    private final TypeNames names;
    private final long freeMethodTable;
    private final JsonGenerator json;
    private final StringBuilder line = new StringBuilder(128);
    private final ObjectFields text;

    /** @param text where strings' text is read ({@code --strings}), else null */
    ObjectListPrinter(PrintWriter out, boolean json, TypeNames names, long freeMethodTable, ObjectFields text) throws IOException {
        this.out = out;
        this.text = text;
        this.names = names;
        this.freeMethodTable = freeMethodTable;
        this.json = json ? new ObjectMapper().getFactory().createGenerator(out) : null;
        if (this.json != null) {
            this.json.writeStartArray();
        } else {
            out.println("address\tmt\tsize\tgeneration\theap\tkind\ttype" + (text == null ? "" : "\tvalue"));
        }
    }

    void object(long address, long mt, long size, Region region) {
        if (json == null) {
            line.setLength(0);
            line.append("0x").append(Long.toHexString(address)).append('\t').append("0x").append(Long.toHexString(mt))
                    .append('\t').append(size).append('\t').append(region == null ? "unknown" : region.kind().id())
                    .append('\t').append(region == null ? -1 : region.heap()).append('\t').append(mt == freeMethodTable ? "free" : "object")
                    .append('\t').append(names.display(mt, freeMethodTable));
            if (text != null) {
                line.append('\t').append(StringStatReport.shown(text(address, StringStatReport.SHOWN + 1)));
            }
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
            if (text != null) {
                json.writeStringField("value", text(address, ObjectFields.MAX_TEXT));
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A string's text, or why it cannot be read ({@code (not in the dump: …)}). */
    private String text(long address, int max) {
        try {
            return text.text(address, max);
        } catch (MissingMemoryException e) {
            return "(not in the dump: " + e.getMessage() + ")";
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
