package io.clrheap.layout.profile;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.layout.Constant;
import io.clrheap.layout.DacTable;
import io.clrheap.layout.FieldLayout;
import io.clrheap.layout.GlobalValue;
import io.clrheap.layout.Provenance;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.TypeLayout;

/**
 * Writes a resolved {@link RuntimeLayout} as one self-contained profile document (baseline {@code "empty"}, no
 * variants): what {@code clrheap layout --format json} prints for tools in other languages. Reading it back with
 * {@link ProfileLoader} gives an equal layout.
 */
public final class ProfileWriter {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ProfileWriter() {
    }

    public static String toJson(RuntimeLayout layout) {
        ObjectNode root = JSON.createObjectNode();
        root.put("?", "clrheap profile " + layout.describe() + ", resolved from " + layout.profileName());
        root.put("version", 0);
        root.put("baseline", "empty");
        ObjectNode header = root.putObject("clrheap");
        header.put("runtime", layout.version().moniker());
        header.put("gc", layout.gc().id());
        header.put("os", layout.os());
        header.put("arch", layout.arch());

        ObjectNode sources = root.putObject("sources");
        layout.sources().forEach(sources::put);

        ObjectNode types = root.putObject("types");
        for (TypeLayout t : layout.types().values()) {
            ObjectNode type = types.putObject(t.name());
            if (t.description() != null) {
                type.put("?", t.description());
            }
            if (t.size().isPresent() && t.sizeProvenance() == null) {
                type.put("!", hex(t.size().getAsLong()));
            } else if (t.size().isPresent()) {
                ArrayNode size = type.putArray("!");
                size.add(hex(t.size().getAsLong()));
                provenance(size, t.sizeProvenance());
            }
            for (FieldLayout f : t.fields()) {
                ArrayNode field = type.putArray(f.name());
                field.add(hex(f.offset()));
                field.add(f.type().name());
                provenance(field, f.provenance());
            }
        }

        ObjectNode globals = root.putObject("globals");
        for (GlobalValue g : layout.globals().values()) {
            ArrayNode value = globals.putArray(g.name());
            if (g.value() instanceof Long l) {
                value.add(hex(l));
            } else {
                value.add(g.value().toString());
            }
            value.add(g.type());
            provenance(value, g.provenance());
        }

        ObjectNode constants = root.putObject("constants");
        for (Constant c : layout.constants().values()) {
            ArrayNode value = constants.putArray(c.name());
            value.add(hex(c.value()));
            provenance(value, c.provenance());
        }

        ObjectNode contracts = root.putObject("contracts");
        layout.contracts().forEach(contracts::put);

        ObjectNode order = root.putObject("dacFieldOrder");
        layout.dacFieldOrder().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey())
                .forEach(e -> e.getValue().forEach(order.withArray(e.getKey())::add));

        // every build carries its full table, so that a reader needs no shared section
        ArrayNode builds = root.putArray("builds");
        for (RuntimeBuild b : layout.builds()) {
            ObjectNode build = builds.addObject();
            build.put("version", b.version());
            if (!b.fileVersion().isEmpty()) {
                build.put("fileVersion", b.fileVersion());
            }
            if (!b.commit().isEmpty()) {
                build.put("commit", b.commit());
            }
            if (!b.buildFile().isEmpty()) {
                build.put("buildFile", b.buildFile());
            }
            ArrayNode length = build.putArray("dacTableLength");
            length.add(b.dacTable().length());
            provenance(length, b.provenance());
            ObjectNode table = build.putObject("dacTable");
            for (DacTable.DacTableEntry e : b.dacTable().entries().values()) {
                ArrayNode entry = table.putArray(e.name());
                entry.add(e.index());
                provenance(entry, e.provenance());
            }
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write profile JSON", e);
        }
    }

    private static void provenance(ArrayNode into, Provenance p) {
        if (p == null) {
            return;
        }
        into.add(p.certainty().id());
        into.add(p.sourceKey());
        if (p.note() != null) {
            into.add(p.note());
        }
    }

    private static String hex(long value) {
        return value < 0 ? "-0x" + Long.toHexString(-value) : "0x" + Long.toHexString(value);
    }
}
