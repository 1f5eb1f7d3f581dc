package io.clrheap.emulator;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.layout.GcFlavor;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import io.clrheap.emulator.scenario.FieldSpec;
import io.clrheap.emulator.scenario.FieldType;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.scenario.Feature;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;

/**
 * Scenarios as JSON (docs/scenarios.md): the same fields as {@link Scenario}, with the population counts grouped
 * under {@code objects}, then {@code types} and the {@code program}. Reading is strict: an unknown key, a missing
 * one or a value out of range is refused with the file and the key's path named.
 */
public final class ScenarioJson {

    private static final Set<String> KEYS = Set.of("name", "description", "runtime", "gc", "gcMode", "heaps", "threads", "objects",
            "garbage", "handlesPerKind", "features", "types", "program", "seed");
    private static final Set<String> OBJECT_KEYS = Set.of("gen2", "gen1", "gen0", "loh", "poh", "frozenStrings");
    private static final Set<String> TYPE_KEYS = Set.of("name", "shape", "baseSize", "componentSize", "pointerFields", "rank",
            "defaultConstructor", "references", "finalizer", "parent", "fields");
    private static final Set<String> ALLOCATE_KEYS = Set.of("allocate", "count", "lengths", "where", "heap", "dies");
    private static final Set<String> COLLECT_KEYS = Set.of("collect");
    private static final Set<String> LENGTH_KEYS = Set.of("distribution", "min", "max");
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private ScenarioJson() {
    }

    public static String write(Scenario s) {
        ObjectNode root = JSON.createObjectNode();
        root.put("name", s.name());
        root.put("description", s.description());
        root.put("runtime", s.runtimeName());
        root.put("gc", s.gc().id());
        if (s.gcMode() != io.clrheap.emulator.scenario.GcMode.REGIONS) {
            root.put("gcMode", s.gcMode().spelling());
        }
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
        ArrayNode features = root.putArray("features");
        EnumSet.copyOf(s.features().isEmpty() ? EnumSet.noneOf(Feature.class) : s.features())
                .forEach(f -> features.add(f.name().toLowerCase(Locale.ROOT).replace('_', '-')));
        ArrayNode types = root.putArray("types");
        for (TypeDef t : s.types()) {
            ObjectNode n = types.addObject();
            n.put("name", t.name());
            n.put("shape", t.shape().id());
            n.put("baseSize", t.baseSize());
            n.put("componentSize", t.componentSize());
            n.put("rank", t.rank());
            n.put("defaultConstructor", t.defaultConstructor());
            if (!t.references().isEmpty()) {
                ArrayNode references = n.putArray("references");
                t.references().forEach(references::add);
            }
            if (t.finalizer()) {
                n.put("finalizer", true);
            }
            if (t.parent() != null) {
                n.put("parent", t.parent().name());
            }
            if (!t.fields().isEmpty()) {
                ArrayNode fields = n.putArray("fields");
                for (FieldSpec f : t.fields()) {
                    ObjectNode field = fields.addObject();
                    field.put("name", f.name());
                    field.put("type", f.type().name());
                    if (f.isStatic()) {
                        field.put("static", true);
                    }
                }
            }
        }
        ArrayNode program = root.putArray("program");
        for (Step step : s.program()) {
            ObjectNode n = program.addObject();
            switch (step) {
                case Step.Allocate a -> {
                    n.put("allocate", a.type());
                    n.put("count", a.count());
                    ObjectNode lengths = n.putObject("lengths");
                    lengths.put("distribution", a.lengths().distribution().id());
                    lengths.put("min", a.lengths().min());
                    lengths.put("max", a.lengths().max());
                    n.put("where", a.where().id());
                    n.put("heap", a.heap());
                    n.put("dies", a.dies());
                }
                case Step.Collect c -> n.put("collect", c.generation());
            }
        }
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
        try {
            Scenario.Builder b = Scenario.builder(text(root, "name", source, ""))
                    .description(root.has("description") ? text(root, "description", source, "") : "")
                    .runtime(io.clrheap.layout.profile.RuntimeChoice.parse(text(root, "runtime", source, ""), io.clrheap.layout.profile.ProfileLoader.builtIn()))
                    .gc(GcFlavor.parse(text(root, "gc", source, "")))
                    .gcMode(root.has("gcMode") ? io.clrheap.emulator.scenario.GcMode.parse(text(root, "gcMode", source, "")) : io.clrheap.emulator.scenario.GcMode.REGIONS)
                    .heaps(integer(root, "heaps", source, ""))
                    .threads(integer(root, "threads", source, ""))
                    .garbage(number(root, "garbage", source, ""))
                    .handlesPerKind(integer(root, "handlesPerKind", source, ""))
                    .seed(longInteger(root, "seed", source, ""));
            JsonNode objects = required(root, "objects", source, "");
            unknownKeys(objects, OBJECT_KEYS, source, "objects.");
            b.objects(longInteger(objects, "gen2", source, "objects."), longInteger(objects, "gen1", source, "objects."),
                    longInteger(objects, "gen0", source, "objects."), longInteger(objects, "loh", source, "objects."),
                    longInteger(objects, "poh", source, "objects."));
            b.frozenStrings(longInteger(objects, "frozenStrings", source, "objects."));
            Set<Feature> features = EnumSet.noneOf(Feature.class);
            for (JsonNode f : array(root, "features", source)) {
                try {
                    features.add(Feature.valueOf(f.asText().toUpperCase(Locale.ROOT).replace('-', '_')));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(source + ": unknown feature '" + f.asText() + "'");
                }
            }
            b.features(features);
            int i = 0;
            java.util.Map<String, TypeDef> typed = new java.util.HashMap<>();
            for (JsonNode t : array(root, "types", source)) {
                String at = "types[" + i++ + "].";
                unknownKeys(t, TYPE_KEYS, source, at);
                try {
                    TypeDef.Shape shape = TypeDef.Shape.parse(text(t, "shape", source, at));
                    TypeDef parent = t.has("parent") ? typed.get(text(t, "parent", source, at)) : null;
                    if (t.has("parent") && parent == null) {
                        throw new IllegalArgumentException("the parent " + text(t, "parent", source, at) + " is no class with fields defined before");
                    }
                    List<FieldSpec> fields = new java.util.ArrayList<>();
                    if (t.has("fields")) {
                        for (JsonNode f : t.get("fields")) {
                            fields.add(new FieldSpec(f.path("name").asText(), fieldType(f.path("type").asText(), typed),
                                    f.path("static").asBoolean(false)));
                        }
                    }
                    TypeDef def = new TypeDef(text(t, "name", source, at), shape,
                            integer(t, "baseSize", source, at), t.has("componentSize") ? integer(t, "componentSize", source, at) : 0,
                            t.has("pointerFields") ? integer(t, "pointerFields", source, at) : 0, t.has("rank") ? integer(t, "rank", source, at) : 1,
                            t.has("defaultConstructor") ? bool(t, "defaultConstructor", source, at) : shape == TypeDef.Shape.CLASS,
                            references(t, source, at), t.has("finalizer") && bool(t, "finalizer", source, at), fields, parent);
                    if (def.hasFieldDescs()) {
                        typed.put(def.name(), def);
                    }
                    b.type(def);
                } catch (IllegalArgumentException e) {
                    throw named(e, source, at);
                }
            }
            i = 0;
            for (JsonNode step : array(root, "program", source)) {
                String at = "program[" + i++ + "].";
                try {
                    if (step.has("collect")) {
                        unknownKeys(step, COLLECT_KEYS, source, at);
                        b.collect(integer(step, "collect", source, at));
                    } else if (step.has("allocate")) {
                        unknownKeys(step, ALLOCATE_KEYS, source, at);
                        Step.Lengths lengths = Step.Lengths.fixed(0);
                        if (step.has("lengths")) {
                            JsonNode l = step.get("lengths");
                            unknownKeys(l, LENGTH_KEYS, source, at + "lengths.");
                            lengths = new Step.Lengths(Step.Distribution.parse(text(l, "distribution", source, at + "lengths.")),
                                    longInteger(l, "min", source, at + "lengths."), longInteger(l, "max", source, at + "lengths."));
                        }
                        b.allocate(new Step.Allocate(text(step, "allocate", source, at), longInteger(step, "count", source, at), lengths,
                                Step.Where.parse(text(step, "where", source, at)), step.has("heap") ? integer(step, "heap", source, at) : -1,
                                step.has("dies") ? number(step, "dies", source, at) : 0));
                    } else {
                        throw new IllegalArgumentException(source + ": " + at.substring(0, at.length() - 1)
                                + " is neither {\"allocate\": ...} nor {\"collect\": N}");
                    }
                } catch (IllegalArgumentException e) {
                    throw named(e, source, at);
                }
            }
            return b.build();
        } catch (IllegalArgumentException e) {
            throw named(e, source, "");
        }
    }

    private static IllegalArgumentException named(IllegalArgumentException e, String source, String at) {
        if (e.getMessage() != null && e.getMessage().startsWith(source + ":")) {
            return e;
        }
        return new IllegalArgumentException(source + ": " + (at.isEmpty() ? "" : at.substring(0, at.length() - 1) + ": ") + e.getMessage(), e);
    }

    private static Iterable<JsonNode> array(JsonNode root, String key, String source) {
        JsonNode list = root.path(key);
        if (list.isMissingNode() || list.isNull()) {
            return java.util.List.of();
        }
        if (!list.isArray()) {
            throw new IllegalArgumentException(source + ": '" + key + "' must be an array, found " + list);
        }
        return list;
    }

    private static void unknownKeys(JsonNode node, Set<String> known, String source, String prefix) {
        if (!node.isObject()) {
            throw new IllegalArgumentException(source + ": '" + (prefix.isEmpty() ? "(root)" : prefix.substring(0, prefix.length() - 1))
                    + "' must be an object, found " + node);
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!known.contains(key)) {
                throw new IllegalArgumentException(source + ": unknown key '" + prefix + key + "' (known: " + new java.util.TreeSet<>(known) + ")");
            }
        }
    }

    private static JsonNode required(JsonNode node, String key, String source, String prefix) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException(source + ": '" + prefix + key + "' is missing");
        }
        return v;
    }

    private static String text(JsonNode node, String key, String source, String prefix) {
        JsonNode v = required(node, key, source, prefix);
        if (!v.isTextual()) {
            throw new IllegalArgumentException(source + ": '" + prefix + key + "' must be a string, found " + v);
        }
        return v.asText();
    }

    private static int integer(JsonNode node, String key, String source, String prefix) {
        JsonNode v = required(node, key, source, prefix);
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new IllegalArgumentException(source + ": '" + prefix + key + "' must be an integer, found " + v);
        }
        return v.intValue();
    }

    private static long longInteger(JsonNode node, String key, String source, String prefix) {
        JsonNode v = required(node, key, source, prefix);
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new IllegalArgumentException(source + ": '" + prefix + key + "' must be an integer, found " + v);
        }
        return v.longValue();
    }

    /** A type's "references": an array of offsets (empty when absent). */
    /** The primitives by the names a field's type is written with. */
    private static final java.util.Map<String, Integer> PRIMITIVES = java.util.Map.ofEntries(
            java.util.Map.entry("System.Boolean", 0x2), java.util.Map.entry("System.Char", 0x3), java.util.Map.entry("System.SByte", 0x4),
            java.util.Map.entry("System.Byte", 0x5), java.util.Map.entry("System.Int16", 0x6), java.util.Map.entry("System.UInt16", 0x7),
            java.util.Map.entry("System.Int32", 0x8), java.util.Map.entry("System.UInt32", 0x9), java.util.Map.entry("System.Int64", 0xa),
            java.util.Map.entry("System.UInt64", 0xb), java.util.Map.entry("System.Single", 0xc), java.util.Map.entry("System.Double", 0xd));

    /**
     * A field's type by name: a primitive, System.String, System.Object, {@code T[]}, an enum or struct of the scenario
     * defined before (stored inline), else a class of the scenario (a reference).
     */
    private static FieldType fieldType(String name, java.util.Map<String, TypeDef> typed) {
        if (name.endsWith("[]")) {
            return FieldType.arrayOf(fieldType(name.substring(0, name.length() - 2), typed));
        }
        Integer primitive = PRIMITIVES.get(name);
        if (primitive != null) {
            return FieldType.primitive(primitive);
        }
        if (name.equals("System.String")) {
            return FieldType.STRING;
        }
        if (name.equals("System.Object")) {
            return FieldType.OBJECT;
        }
        TypeDef t = typed.get(name);
        if (t != null && t.isEnum()) {
            return FieldType.enumOf(t);
        }
        if (t != null && t.shape() == TypeDef.Shape.BOXED) {
            return FieldType.struct(t);
        }
        return FieldType.classNamed(name);
    }

    private static List<Integer> references(JsonNode type, String source, String prefix) {
        List<Integer> offsets = new java.util.ArrayList<>();
        if (!type.has("references")) {
            return offsets;
        }
        JsonNode array = type.get("references");
        if (!array.isArray()) {
            throw new IllegalArgumentException(source + ": " + prefix + "references must be an array of offsets");
        }
        for (JsonNode offset : array) {
            if (!offset.canConvertToInt() || !offset.isIntegralNumber()) {
                throw new IllegalArgumentException(source + ": " + prefix + "references holds integer offsets, not " + offset);
            }
            offsets.add(offset.intValue());
        }
        return offsets;
    }

    private static boolean bool(JsonNode node, String key, String source, String prefix) {
        JsonNode v = required(node, key, source, prefix);
        if (!v.isBoolean()) {
            throw new IllegalArgumentException(source + ": '" + prefix + key + "' must be true or false, found " + v);
        }
        return v.booleanValue();
    }

    private static double number(JsonNode node, String key, String source, String prefix) {
        JsonNode v = required(node, key, source, prefix);
        if (!v.isNumber()) {
            throw new IllegalArgumentException(source + ": '" + prefix + key + "' must be a number, found " + v);
        }
        return v.doubleValue();
    }
}
