package io.clrheap.emulator;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;

/**
 * Scenarios as JSON (docs/scenarios.md): the same fields as {@link Scenario}, with the object counts grouped.
 * Reading is strict: an unknown key, a missing one or a value out of range is refused with its name.
 */
public final class ScenarioJson {

    private static final Set<String> KEYS = Set.of("name", "description", "runtime", "gc", "heaps", "threads", "objects",
            "garbage", "handlesPerKind", "features", "seed");
    private static final Set<String> OBJECT_KEYS = Set.of("gen2", "gen1", "gen0", "loh", "poh", "frozenStrings");
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private ScenarioJson() {
    }

    public static String write(Scenario s) {
        ObjectNode root = JSON.createObjectNode();
        root.put("name", s.name());
        root.put("description", s.description());
        root.put("runtime", s.runtime().shortName());
        root.put("gc", s.gc().id());
        root.put("heaps", s.heaps());
        root.put("threads", s.threads());
        ObjectNode objects = root.putObject("objects");
        objects.put("gen2", s.gen2Objects());
        objects.put("gen1", s.gen1Objects());
        objects.put("gen0", s.gen0Objects());
        objects.put("loh", s.lohObjects());
        objects.put("poh", s.pohObjects());
        objects.put("frozenStrings", s.frozenStrings());
        root.put("garbage", s.garbage());
        root.put("handlesPerKind", s.handlesPerKind());
        var features = root.putArray("features");
        EnumSet.copyOf(s.features().isEmpty() ? EnumSet.noneOf(Feature.class) : s.features())
                .forEach(f -> features.add(f.name().toLowerCase(Locale.ROOT).replace('_', '-')));
        root.put("seed", s.seed());
        try {
            return JSON.writeValueAsString(root);
        } catch (JacksonException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @throws IllegalArgumentException naming {@code source} and the key that is wrong */
    public static Scenario read(String text, String source) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(source + ": not valid JSON"
                    + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr())
                    + ": " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(source + ": a scenario is a JSON object");
        }
        unknownKeys(root, KEYS, source, "");
        JsonNode objects = required(root, "objects", source);
        unknownKeys(objects, OBJECT_KEYS, source, "objects.");
        Set<Feature> features = EnumSet.noneOf(Feature.class);
        JsonNode list = root.path("features");
        if (!list.isMissingNode()) {
            for (JsonNode f : list) {
                try {
                    features.add(Feature.valueOf(f.asText().toUpperCase(Locale.ROOT).replace('-', '_')));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(source + ": unknown feature '" + f.asText() + "'");
                }
            }
        }
        try {
            return new Scenario(text(root, "name", source), root.path("description").asText(""),
                    RuntimeVersion.parse(text(root, "runtime", source)), GcFlavor.parse(text(root, "gc", source)),
                    integer(root, "heaps", source), integer(root, "threads", source),
                    integer(objects, "gen2", source), integer(objects, "gen1", source), integer(objects, "gen0", source),
                    integer(objects, "loh", source), integer(objects, "poh", source), integer(objects, "frozenStrings", source),
                    required(root, "garbage", source).asDouble(), integer(root, "handlesPerKind", source), features,
                    required(root, "seed", source).asLong());
        } catch (IllegalArgumentException e) {
            throw e.getMessage() != null && e.getMessage().startsWith(source) ? e : new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    private static void unknownKeys(JsonNode node, Set<String> known, String source, String prefix) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!known.contains(key)) {
                throw new IllegalArgumentException(source + ": unknown key '" + prefix + key + "' (known: " + new java.util.TreeSet<>(known) + ")");
            }
        }
    }

    private static JsonNode required(JsonNode node, String key, String source) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException(source + ": '" + key + "' is missing");
        }
        return v;
    }

    private static String text(JsonNode node, String key, String source) {
        return required(node, key, source).asText();
    }

    private static int integer(JsonNode node, String key, String source) {
        JsonNode v = required(node, key, source);
        if (!v.canConvertToInt()) {
            throw new IllegalArgumentException(source + ": '" + key + "' must be an integer, found " + v);
        }
        return v.intValue();
    }
}
