package io.clrheap.layout.profile;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.layout.Certainty;
import io.clrheap.layout.Constant;
import io.clrheap.layout.DacTable;
import io.clrheap.layout.FieldLayout;
import io.clrheap.layout.FieldType;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.GlobalValue;
import io.clrheap.layout.Provenance;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.TargetOs;
import io.clrheap.layout.TypeLayout;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads runtime profiles: JSON documents in the shape of the runtime's own data descriptor (the cDAC compact
 * format: {@code types} with a size {@code "!"} and field offsets, {@code globals}, {@code contracts}, and a
 * {@code baseline} they build on), extended so that every field carries its type, certainty and source. See
 * {@code docs/profiles.md} beside the profile files for the format.
 *
 * <p>A profile is resolved in layers: its baseline (recursively), then the file itself, then the section of
 * its {@code variants} for the GC flavour asked for. A later layer adds or replaces fields; {@code null}
 * removes a field or a structure. The result is validated as a whole: every error names the file (and
 * variant) the offending entry came from, the structure and the field.
 *
 * <p>Long because the layers (baseline, file, variant), their merge rules and the validation of the result share one
 * record of where each entry came from (file, variant, structure, field) that every error message names; split, each part
 * would have to carry it.
 */
public final class ProfileLoader {

    /** Where profile documents come from, by name (without {@code .json}). */
    @FunctionalInterface
    public interface DocumentSource {
        Optional<String> read(String name);
    }

    private static final String RESOURCE_DIR = "/io/clrheap/layout/profiles/";
    private static final Set<String> TOP_LEVEL_KEYS = Set.of("?", "version", "baseline", "clrheap", "sources", "types",
            "globals", "constants", "contracts", "dacTable", "builds", "dacFieldOrder", "variants");
    private static final Set<String> VARIANT_KEYS = Set.of("?", "sources", "types", "globals", "constants", "contracts",
            "dacFieldOrder");
    /** A baseline chain longer than this is a mistake. */
    private static final int MAX_BASELINE_DEPTH = 8;
    /** No runtime structure is 4 GiB; larger offsets or sizes are typos that would overflow arithmetic. */
    private static final long MAX_OFFSET = 1L << 32;
    /** g_dacTable has 129-158 entries in 8-10. */
    private static final long MAX_DAC_TABLE_LENGTH = 100_000;

    private final DocumentSource source;
    private final ObjectMapper json;
    /** The built-in loader's parsed files and resolved layouts (its resources never change); null for other loaders. */
    private final Map<String, ObjectNode> documents;
    private final Map<String, RuntimeLayout> resolved;

    public ProfileLoader(DocumentSource source) {
        this(source, false);
    }

    private ProfileLoader(DocumentSource source, boolean memoize) {
        this.source = source;
        this.json = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        this.documents = memoize ? new java.util.concurrent.ConcurrentHashMap<>() : null;
        this.resolved = memoize ? new java.util.concurrent.ConcurrentHashMap<>() : null;
    }

    private static final class BuiltIn {
        static final ProfileLoader LOADER = new ProfileLoader(name -> {
            try (InputStream in = ProfileLoader.class.getResourceAsStream(RESOURCE_DIR + name + ".json")) {
                return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read profile resource " + name + ".json", e);
            }
        }, true);
    }

    /**
     * The profiles shipped in this jar: one loader for the JVM, which parses each file and resolves each profile once
     * (opening a dump resolves four: identifying the build reads every version's; a command's start is shorter for it).
     */
    public static ProfileLoader builtIn() {
        return BuiltIn.LOADER;
    }

    public RuntimeLayout load(RuntimeVersion version, GcFlavor gc) {
        return load(version.moniker(), gc);
    }

    /**
     * The layout of one build of {@code version}: the version's profile, then what the build's file records for
     * {@code gc} (fields it moves); {@link RuntimeLayout#primaryBuild()} is that build.
     *
     * @throws ProfileException when the version has no such build
     */
    public RuntimeLayout load(RuntimeVersion version, GcFlavor gc, String build) {
        return load(version.moniker(), gc, build);
    }

    /** The layout of {@code version} on {@code os} ({@link TargetOs#profileName}); on Linux, {@link #load(RuntimeVersion, GcFlavor)}. */
    public RuntimeLayout load(RuntimeVersion version, TargetOs os, GcFlavor gc) {
        return load(os.profileName(version), gc);
    }

    /** The layout of one build of {@code version} on {@code os}. */
    public RuntimeLayout load(RuntimeVersion version, TargetOs os, GcFlavor gc, String build) {
        return load(os.profileName(version), gc, build);
    }

    /** Whether there is a profile of {@code version} on {@code os} at all (Windows has some versions only). */
    public boolean has(RuntimeVersion version, TargetOs os) {
        String name = os.profileName(version);
        if (documents != null && documents.containsKey(name)) {
            return true;
        }
        return source.read(name).isPresent();
    }

    /** Resolves and validates profile {@code name} for flavour {@code gc}. */
    public RuntimeLayout load(String name, GcFlavor gc) {
        return load(name, gc, null);
    }

    private RuntimeLayout load(String name, GcFlavor gc, String build) {
        if (resolved == null) {
            return resolve(name, gc, build);
        }
        String key = name + "#" + gc.id() + (build == null ? "" : "@" + build);
        RuntimeLayout layout = resolved.get(key);
        if (layout == null) {
            // resolved outside the map's lock (a concurrent first load resolves it twice; the first one stored wins)
            RuntimeLayout fresh = resolve(name, gc, build);
            layout = resolved.putIfAbsent(key, fresh);
            if (layout == null) {
                layout = fresh;
            }
        }
        return layout;
    }

    private RuntimeLayout resolve(String name, GcFlavor gc, String build) {
        Draft draft = new Draft();
        List<String> chain = new ArrayList<>();
        applyWithBaselines(name, gc, draft, chain, new ArrayList<>());
        for (BuildFile file : buildFiles(draft.os == null ? "linux" : draft.os, draft.arch == null ? "x64" : draft.arch)) {
            if (file.runtime().equals(draft.runtime)) {
                draft.addBuildFile(file, gc, file.version().equals(build));
                if (file.version().equals(build)) {
                    chain.add(file.name() + "#" + gc.id());
                }
            }
        }
        return draft.build(String.join(" + ", chain), gc, build);
    }

    /** A build file ({@code builds/OS-ARCH-VERSION.json}): one build's identity, g_dacTable and moved fields. */
    private record BuildFile(String name, String version, String runtime, ObjectNode root) {
    }

    private static final Set<String> BUILD_FILE_KEYS = Set.of("?", "build", "sources", "dacTableLength", "dacTable", "variants", "checks");
    private static final String BUILD_INDEX = "builds/index";

    /**
     * The build files of {@code os-arch} that {@code builds/index.json} lists ({@code {"linux-x64": ["9.0.7", …]}}); none
     * when the source has no index (a custom loader).
     */
    private List<BuildFile> buildFiles(String os, String arch) {
        String platform = os + "-" + arch;
        ObjectNode index = document(BUILD_INDEX, true);
        if (index == null) {
            return List.of();
        }
        JsonNode versions = index.get(platform);
        if (versions == null) {
            return List.of();
        }
        if (!versions.isArray()) {
            throw new ProfileException(BUILD_INDEX + ".json", null, null, "'" + platform + "' must be an array of versions");
        }
        List<BuildFile> files = new ArrayList<>();
        for (JsonNode v : versions) {
            String name = "builds/" + platform + "-" + v.asText();
            String file = name + ".json";
            ObjectNode root = document(name, false);
            requireKeys(root, BUILD_FILE_KEYS, file);
            JsonNode build = root.path("build");
            String version = build.path("version").asText("");
            String runtime = build.path("runtime").asText("");
            if (!version.equals(v.asText())) {
                throw new ProfileException(file, "build", "version", "is '" + version + "', the index lists it as " + v.asText());
            }
            if (!build.path("os").asText("").equals(os) || !build.path("arch").asText("").equals(arch)) {
                throw new ProfileException(file, "build", "os", "is not " + platform + ", as its name says");
            }
            files.add(new BuildFile(file, version, runtime, root));
        }
        return files;
    }

    private static void requireKeys(ObjectNode root, Set<String> known, String file) {
        for (var it = root.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!known.contains(key)) {
                throw new ProfileException(file, null, null, (file.contains("#") ? "key '" + key + "' cannot be set per variant (allowed: "
                        : "unknown top-level key '" + key + "' (known: ") + new java.util.TreeSet<>(known) + ")");
            }
        }
    }

    /**
     * Applies the layer of {@code variants} (a profile's or a build file's) for {@code gc} to {@code draft}; true when
     * there was one.
     */
    private static boolean applyVariant(JsonNode variants, String file, GcFlavor gc, Draft draft) {
        if (variants == null) {
            return false;
        }
        if (!variants.isObject()) {
            throw new ProfileException(file, null, null, "'variants' must be an object keyed by server / workstation");
        }
        for (var it = variants.fieldNames(); it.hasNext(); ) {
            String v = it.next();
            if (!v.equals(GcFlavor.SERVER.id()) && !v.equals(GcFlavor.WORKSTATION.id())) {
                throw new ProfileException(file, null, null, "unknown variant '" + v + "' (known: server, workstation)");
            }
        }
        JsonNode variant = variants.get(gc.id());
        if (variant == null) {
            return false;
        }
        String origin = file + "#" + gc.id();
        if (!variant.isObject()) {
            throw new ProfileException(origin, null, null, "a variant must be an object");
        }
        requireKeys((ObjectNode) variant, VARIANT_KEYS, origin);
        draft.apply((ObjectNode) variant, origin, false);
        return true;
    }

    /** A document by name, parsed once per built-in loader; null when {@code optional} and the source lacks it. */
    private ObjectNode document(String name, boolean optional) {
        ObjectNode root = documents == null ? null : documents.get(name);
        if (root != null) {
            return root;
        }
        Optional<String> text = source.read(name);
        if (text.isEmpty()) {
            if (optional) {
                return null;
            }
            throw new ProfileException(name + ".json", null, null, "no such profile");
        }
        root = parse(name + ".json", text.get());
        if (documents != null) {
            documents.put(name, root);
        }
        return root;
    }

    private void applyWithBaselines(String name, GcFlavor gc, Draft draft, List<String> chain, List<String> visiting) {
        String file = name + ".json";
        if (visiting.contains(name)) {
            throw new ProfileException(file, null, null, "baseline chain loops: " + String.join(" -> ", visiting) + " -> " + name);
        }
        if (visiting.size() > MAX_BASELINE_DEPTH) {
            throw new ProfileException(file, null, null, "baseline chain is deeper than " + MAX_BASELINE_DEPTH + ": " + visiting);
        }
        visiting.add(name);
        ObjectNode root = document(name, false);
        requireKeys(root, TOP_LEVEL_KEYS, file);
        JsonNode baseline = root.get("baseline");
        if (baseline == null || !baseline.isTextual()) {
            throw new ProfileException(file, null, null, "'baseline' must name another profile or be \"empty\"");
        }
        if (!baseline.asText().equals("empty")) {
            applyWithBaselines(baseline.asText(), gc, draft, chain, visiting);
        }
        chain.add(file);
        draft.apply(root, file, true);
        if (applyVariant(root.get("variants"), file, gc, draft)) {
            chain.set(chain.size() - 1, file + "#" + gc.id());
        }
    }

    private ObjectNode parse(String file, String text) {
        try {
            JsonNode node = json.readTree(text);
            if (node == null || !node.isObject()) {
                throw new ProfileException(file, null, null, "a profile must be a JSON object");
            }
            return (ObjectNode) node;
        } catch (JacksonException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new ProfileException(file, "not valid JSON" + where + ": " + e.getOriginalMessage(), e);
        }
    }

    /** An entry of the profile and the file (and variant) it came from. */
    private record Entry(JsonNode node, String origin) {
    }

    /** A structure while layers are applied. */
    private static final class DraftType {
        Entry size;
        String description;
        String origin;
        final LinkedHashMap<String, Entry> fields = new LinkedHashMap<>();
    }

    /** The profile while its layers are applied; {@link #build} validates and freezes it. */
    private static final class Draft {
        String runtime;
        String os;
        String arch;
        final LinkedHashMap<String, Entry> sources = new LinkedHashMap<>();
        final LinkedHashMap<String, DraftType> types = new LinkedHashMap<>();
        final LinkedHashMap<String, Entry> globals = new LinkedHashMap<>();
        final LinkedHashMap<String, Entry> constants = new LinkedHashMap<>();
        final LinkedHashMap<String, Entry> contracts = new LinkedHashMap<>();
        final LinkedHashMap<String, Entry> dacTable = new LinkedHashMap<>();
        final LinkedHashMap<String, Entry> dacFieldOrder = new LinkedHashMap<>();
        Entry builds;
        /** The build files of this runtime, in index order. */
        final List<BuildFile> buildFiles = new ArrayList<>();

        /** Adds a build file's build; {@code selected}: its layer for {@code gc} applies too. */
        void addBuildFile(BuildFile file, GcFlavor gc, boolean selected) {
            mergeEntries(file.root().get("sources"), sources, file.name(), "sources");
            buildFiles.add(file);
            if (!selected) {
                return;
            }
            applyVariant(file.root().get("variants"), file.name(), gc, this);
        }

        void apply(ObjectNode layer, String origin, boolean wholeFile) {
            if (wholeFile) {
                JsonNode header = layer.get("clrheap");
                if (header != null) {
                    runtime = text(header, "runtime", runtime, origin);
                    os = text(header, "os", os, origin);
                    arch = text(header, "arch", arch, origin);
                }
                if (layer.has("builds")) {
                    builds = new Entry(layer.get("builds"), origin);
                }
                mergeEntries(layer.get("dacTable"), dacTable, origin, "dacTable");
            }
            mergeEntries(layer.get("sources"), sources, origin, "sources");
            mergeEntries(layer.get("globals"), globals, origin, "globals");
            mergeEntries(layer.get("constants"), constants, origin, "constants");
            mergeEntries(layer.get("contracts"), contracts, origin, "contracts");
            mergeEntries(layer.get("dacFieldOrder"), dacFieldOrder, origin, "dacFieldOrder");
            JsonNode typesNode = layer.get("types");
            if (typesNode == null) {
                return;
            }
            if (!typesNode.isObject()) {
                throw new ProfileException(origin, null, null, "'types' must be an object");
            }
            for (var it = typesNode.properties().iterator(); it.hasNext(); ) {
                var e = it.next();
                String typeName = e.getKey();
                JsonNode body = e.getValue();
                if (body.isNull()) {
                    types.remove(typeName);
                    continue;
                }
                if (!body.isObject()) {
                    throw new ProfileException(origin, typeName, null, "a structure must be an object of fields");
                }
                DraftType t = types.computeIfAbsent(typeName, k -> new DraftType());
                t.origin = origin;
                for (var fit = body.properties().iterator(); fit.hasNext(); ) {
                    var f = fit.next();
                    switch (f.getKey()) {
                        case "!" -> t.size = f.getValue().isNull() ? null : new Entry(f.getValue(), origin);
                        case "?" -> t.description = f.getValue().asText();
                        default -> {
                            if (f.getValue().isNull()) {
                                t.fields.remove(f.getKey());
                            } else {
                                t.fields.put(f.getKey(), new Entry(f.getValue(), origin));
                            }
                        }
                    }
                }
            }
        }

        private static String text(JsonNode header, String key, String previous, String origin) {
            JsonNode n = header.get(key);
            if (n == null) {
                return previous;
            }
            if (!n.isTextual()) {
                throw new ProfileException(origin, null, null, "clrheap." + key + " must be a string");
            }
            return n.asText();
        }

        private static void mergeEntries(JsonNode node, Map<String, Entry> into, String origin, String section) {
            if (node == null) {
                return;
            }
            if (!node.isObject()) {
                throw new ProfileException(origin, null, null, "'" + section + "' must be an object");
            }
            for (var it = node.properties().iterator(); it.hasNext(); ) {
                var e = it.next();
                if (e.getKey().equals("?")) {
                    continue;
                }
                if (e.getValue().isNull()) {
                    into.remove(e.getKey());
                } else {
                    into.put(e.getKey(), new Entry(e.getValue(), origin));
                }
            }
        }

        RuntimeLayout build(String profileName, GcFlavor gc, String selectedBuild) {
            String file = profileName;
            if (runtime == null) {
                throw new ProfileException(file, null, null, "clrheap.runtime is not set by any layer");
            }
            RuntimeVersion version;
            try {
                version = RuntimeVersion.parse(runtime);
            } catch (IllegalArgumentException e) {
                throw new ProfileException(file, null, null, e.getMessage());
            }
            Map<String, String> citations = new LinkedHashMap<>();
            sources.forEach((k, v) -> {
                if (!v.node().isTextual()) {
                    throw new ProfileException(v.origin(), null, null, "source '" + k + "' must be a string citation");
                }
                citations.put(k, v.node().asText());
            });
            Resolver resolver = new Resolver(citations);

            Map<String, TypeLayout> resolved = new LinkedHashMap<>();
            for (String name : types.keySet()) {
                resolveType(name, resolver, resolved, new HashSet<>());
            }
            requireStructures(version, gc, resolved, file);

            Map<String, Constant> constantMap = new LinkedHashMap<>();
            constants.forEach((name, e) -> {
                JsonNode n = e.node();
                if (!n.isArray() || n.size() < 3 || n.size() > 4) {
                    throw new ProfileException(e.origin(), "constants", name, "a constant must be [value, certainty, source(, note)]");
                }
                long value = resolver.number(n.get(0), e.origin(), "constants", name, "value");
                constantMap.put(name, new Constant(name, value, resolver.provenance(n, 1, e.origin(), "constants", name)));
            });

            Map<String, GlobalValue> globalMap = new LinkedHashMap<>();
            globals.forEach((name, e) -> {
                JsonNode n = e.node();
                if (!n.isArray() || n.size() < 4 || n.size() > 5) {
                    throw new ProfileException(e.origin(), "globals", name, "a global must be [value, type, certainty, source(, note)]");
                }
                String type = n.get(1).asText();
                Object value = type.equals("string") ? n.get(0).asText()
                        : (Object) resolver.number(n.get(0), e.origin(), "globals", name, "value");
                globalMap.put(name, new GlobalValue(name, value, type, resolver.provenance(n, 2, e.origin(), "globals", name)));
            });

            Map<String, Integer> contractMap = new LinkedHashMap<>();
            contracts.forEach((name, e) -> {
                if (!e.node().canConvertToInt()) {
                    throw new ProfileException(e.origin(), "contracts", name, "a contract version must be an integer");
                }
                contractMap.put(name, e.node().intValue());
            });

            Map<String, List<String>> fieldOrder = new LinkedHashMap<>();
            dacFieldOrder.forEach((name, e) -> {
                if (!e.node().isArray()) {
                    throw new ProfileException(e.origin(), "dacFieldOrder", name, "must be an array of field names");
                }
                List<String> names = new ArrayList<>();
                e.node().forEach(x -> names.add(x.asText()));
                fieldOrder.put(name, List.copyOf(names));
            });

            List<RuntimeBuild> buildList = buildList(resolver, file);
            if (selectedBuild != null) {
                RuntimeBuild selected = buildList.stream().filter(b -> b.version().equals(selectedBuild)).findFirst()
                        .orElseThrow(() -> new ProfileException(file, "builds", selectedBuild, "no such build of " + runtime + " (known: "
                                + String.join(", ", buildList.stream().map(RuntimeBuild::version).toList()) + ")"));
                buildList.remove(selected);
                buildList.addFirst(selected);
            }
            return new RuntimeLayout(version, gc, orDefault(os, "linux"), orDefault(arch, "x64"), profileName,
                    buildList, resolved, constantMap, globalMap, contractMap, fieldOrder, citations);
        }

        private static String orDefault(String value, String fallback) {
            return value == null ? fallback : value;
        }

        private List<RuntimeBuild> buildList(Resolver resolver, String file) {
            // a profile of a system with no build recorded yet lists none: derive-profile starts from it (RuntimeLayout#primaryBuild says so)
            if (builds == null || !builds.node().isArray() || (builds.node().isEmpty() && buildFiles.isEmpty() && "linux".equals(orDefault(os, "linux")))) {
                throw new ProfileException(file, null, null, "'builds' must list at least one released build (or a build file must)");
            }
            Map<String, DacTable.DacTableEntry> shared = dacEntries(dacTable, resolver);
            List<RuntimeBuild> list = new ArrayList<>();
            for (JsonNode b : builds.node()) {
                String origin = builds.origin();
                String version = b.path("version").asText(null);
                JsonNode length = b.get("dacTableLength");
                if (version == null || length == null || !length.isArray() || length.size() < 3) {
                    throw new ProfileException(origin, "builds", version, "a build must have \"version\" and \"dacTableLength\": [length, certainty, source]");
                }
                long n = resolver.number(length.get(0), origin, "builds", version, "dacTableLength");
                if (n < 1 || n > MAX_DAC_TABLE_LENGTH) {
                    throw new ProfileException(origin, "builds", version, "dacTableLength " + n + " is outside 1.." + MAX_DAC_TABLE_LENGTH);
                }
                Map<String, DacTable.DacTableEntry> entries = new LinkedHashMap<>(shared);
                if (b.has("dacTable")) {
                    LinkedHashMap<String, Entry> overrides = new LinkedHashMap<>();
                    mergeEntries(b.get("dacTable"), overrides, origin, "builds." + version + ".dacTable");
                    entries.putAll(dacEntries(overrides, resolver));
                }
                list.add(new RuntimeBuild(version, b.path("fileVersion").asText(""), b.path("commit").asText(""),
                        checkedTable(version, n, entries, origin), resolver.provenance(length, 1, origin, "builds", version),
                        b.path("buildFile").asText("")));
            }
            // the builds of build files: a file for a build the profile lists replaces it in place; the others follow, newest first
            List<RuntimeBuild> fromFiles = new ArrayList<>();
            for (BuildFile f : buildFiles) {
                RuntimeBuild b = fileBuild(f, resolver);
                int at = -1;
                for (int i = 0; i < list.size(); i++) {
                    if (list.get(i).version().equals(b.version())) {
                        at = i;
                    }
                }
                if (at >= 0) {
                    list.set(at, b);
                } else {
                    fromFiles.add(b);
                }
            }
            fromFiles.sort((x, y) -> io.clrheap.layout.BuildIdentity.compareVersions(y.version(), x.version()));
            list.addAll(fromFiles);
            return list;
        }

        private RuntimeBuild fileBuild(BuildFile f, Resolver resolver) {
            JsonNode build = f.root().path("build");
            JsonNode length = f.root().get("dacTableLength");
            if (length == null || !length.isArray() || length.size() < 3) {
                throw new ProfileException(f.name(), null, "dacTableLength", "must be [length, certainty, source(, note)]");
            }
            long n = resolver.number(length.get(0), f.name(), null, "dacTableLength", "length");
            if (n < 1 || n > MAX_DAC_TABLE_LENGTH) {
                throw new ProfileException(f.name(), null, "dacTableLength", n + " is outside 1.." + MAX_DAC_TABLE_LENGTH);
            }
            LinkedHashMap<String, Entry> table = new LinkedHashMap<>();
            mergeEntries(f.root().get("dacTable"), table, f.name(), "dacTable");
            Map<String, DacTable.DacTableEntry> entries = dacEntries(table, resolver);
            for (String required : dacTable.keySet()) {
                if (!entries.containsKey(required)) {
                    throw new ProfileException(f.name(), "dacTable", required, "missing: the " + runtime + " profile names it, so the walk reads it");
                }
            }
            return new RuntimeBuild(f.version(), build.path("fileVersion").asText(""), build.path("commit").asText(""),
                    checkedTable(f.version(), n, entries, f.name()), resolver.provenance(length, 1, f.name(), null, "dacTableLength"), f.name());
        }

        private static DacTable checkedTable(String version, long n, Map<String, DacTable.DacTableEntry> entries, String origin) {
            Map<Integer, String> byIndex = new java.util.HashMap<>();
            for (DacTable.DacTableEntry e : entries.values()) {
                String other = byIndex.put(e.index(), e.name());
                if (other != null) {
                    throw new ProfileException(origin, "dacTable", e.name(), "index " + e.index() + " is also " + other + " in build " + version);
                }
                if (e.index() >= n) {
                    throw new ProfileException(origin, "dacTable", e.name(), "index " + e.index() + " is beyond the table length " + n + " of build " + version);
                }
            }
            return new DacTable((int) n, entries);
        }

        private static Map<String, DacTable.DacTableEntry> dacEntries(Map<String, Entry> entries, Resolver resolver) {
            Map<String, DacTable.DacTableEntry> out = new LinkedHashMap<>();
            entries.forEach((name, e) -> {
                JsonNode n = e.node();
                if (!n.isArray() || n.size() < 3) {
                    throw new ProfileException(e.origin(), "dacTable", name, "an entry must be [index, certainty, source(, note)]");
                }
                long index = resolver.number(n.get(0), e.origin(), "dacTable", name, "index");
                if (index < 0 || index > 100_000) {
                    throw new ProfileException(e.origin(), "dacTable", name, "index " + index + " is out of range");
                }
                out.put(name, new DacTable.DacTableEntry(name, (int) index, resolver.provenance(n, 1, e.origin(), "dacTable", name)));
            });
            return out;
        }

        private TypeLayout resolveType(String name, Resolver resolver, Map<String, TypeLayout> resolved, Set<String> resolving) {
            TypeLayout done = resolved.get(name);
            if (done != null) {
                return done;
            }
            DraftType draft = types.get(name);
            if (!resolving.add(name)) {
                throw new ProfileException(draft.origin, name, null, "embeds itself (through " + resolving + ")");
            }
            OptionalLong size = OptionalLong.empty();
            Provenance sizeProvenance = null;
            if (draft.size != null) {
                JsonNode s = draft.size.node();
                if (s.isArray()) {
                    if (s.size() < 3) {
                        throw new ProfileException(draft.size.origin(), name, "!", "a size must be a number or [size, certainty, source(, note)]");
                    }
                    size = OptionalLong.of(resolver.number(s.get(0), draft.size.origin(), name, "!", "size"));
                    sizeProvenance = resolver.provenance(s, 1, draft.size.origin(), name, "!");
                } else {
                    size = OptionalLong.of(resolver.number(s, draft.size.origin(), name, "!", "size"));
                }
                if (size.getAsLong() <= 0 || size.getAsLong() > MAX_OFFSET) {
                    throw new ProfileException(draft.size.origin(), name, "!", "size must be in 1.." + MAX_OFFSET + ", found " + size.getAsLong());
                }
            }
            List<FieldLayout> fields = new ArrayList<>();
            for (var fe : draft.fields.entrySet()) {
                fields.add(resolveField(name, fe.getKey(), fe.getValue(), resolver, resolved, resolving));
            }
            fields.sort(Comparator.comparingLong(FieldLayout::offset).thenComparing(FieldLayout::name));
            FieldLayout previous = null;
            for (FieldLayout f : fields) {
                if (previous != null && f.offset() < previous.end()) {
                    throw new ProfileException(originOf(draft, f), name, f.name(), String.format(
                            "overlaps field '%s' (0x%x..0x%x, from %s) at offset 0x%x", previous.name(), previous.offset(), previous.end(),
                            originOf(draft, previous), f.offset()));
                }
                if (size.isPresent() && f.end() > size.getAsLong()) {
                    throw new ProfileException(originOf(draft, f), name, f.name(), String.format(
                            "ends at 0x%x, beyond the structure's size 0x%x", f.end(), size.getAsLong()));
                }
                previous = f;
            }
            resolving.remove(name);
            TypeLayout t = new TypeLayout(name, size, sizeProvenance, draft.description, fields);
            resolved.put(name, t);
            return t;
        }

        private static String originOf(DraftType draft, FieldLayout f) {
            Entry e = draft.fields.get(f.name());
            return e == null ? draft.origin : e.origin();
        }

        private FieldLayout resolveField(String typeName, String fieldName, Entry entry, Resolver resolver,
                                         Map<String, TypeLayout> resolved, Set<String> resolving) {
            JsonNode n = entry.node();
            String origin = entry.origin();
            if (!n.isArray() || n.size() < 4 || n.size() > 5) {
                throw new ProfileException(origin, typeName, fieldName, "a field must be [offset, type, certainty, source(, note)]");
            }
            long offset = resolver.number(n.get(0), origin, typeName, fieldName, "offset");
            if (offset < 0 || offset > MAX_OFFSET) {
                throw new ProfileException(origin, typeName, fieldName, "offset " + offset + " is outside 0.." + MAX_OFFSET);
            }
            FieldType type;
            try {
                type = FieldType.parse(n.get(1).asText());
            } catch (IllegalArgumentException e) {
                throw new ProfileException(origin, typeName, fieldName, e.getMessage());
            }
            long elementSize;
            if (type.isPrimitive()) {
                elementSize = type.primitiveSize();
            } else {
                if (!types.containsKey(type.element())) {
                    throw new ProfileException(origin, typeName, fieldName, "unknown type '" + type.element()
                            + "' (neither a primitive nor a structure of this profile)");
                }
                TypeLayout embedded = resolveType(type.element(), resolver, resolved, resolving);
                if (embedded.size().isEmpty()) {
                    throw new ProfileException(origin, typeName, fieldName, "embeds '" + type.element() + "', whose size is not known");
                }
                elementSize = embedded.size().getAsLong();
            }
            return new FieldLayout(fieldName, offset, type, elementSize * type.count(), elementSize,
                    resolver.provenance(n, 2, origin, typeName, fieldName));
        }

        private static void requireStructures(RuntimeVersion version, GcFlavor gc, Map<String, TypeLayout> resolved, String file) {
            for (String required : RequiredStructures.of(version, gc)) {
                if (!resolved.containsKey(required)) {
                    throw new ProfileException(file, required, null, "required structure is missing for " + version.moniker() + " " + gc.id());
                }
            }
        }
    }

    /** Parses numbers and provenance triples, resolving source keys. */
    private record Resolver(Map<String, String> citations) {

        long number(JsonNode n, String origin, String structure, String field, String what) {
            if (n.isIntegralNumber() && n.canConvertToLong()) {
                return n.longValue();
            }
            if (n.isTextual()) {
                String t = n.asText().trim();
                try {
                    boolean negative = t.startsWith("-");
                    String digits = negative ? t.substring(1) : t;
                    long v = digits.startsWith("0x") || digits.startsWith("0X")
                            ? Long.parseUnsignedLong(digits.substring(2), 16) : Long.parseLong(digits);
                    return negative ? -v : v;
                } catch (NumberFormatException e) {
                    // reported below
                }
            }
            throw new ProfileException(origin, structure, field, what + " must be an integer or a \"0x…\" string, found " + n);
        }

        Provenance provenance(JsonNode array, int at, String origin, String structure, String field) {
            Certainty certainty;
            try {
                certainty = Certainty.parse(array.get(at).asText());
            } catch (IllegalArgumentException e) {
                throw new ProfileException(origin, structure, field, e.getMessage());
            }
            String key = array.get(at + 1).asText();
            String citation = citations.get(key);
            if (citation == null) {
                throw new ProfileException(origin, structure, field, "source '" + key + "' is not in the profile's sources");
            }
            String note = array.size() > at + 2 ? array.get(at + 2).asText() : null;
            return new Provenance(certainty, key, citation, note);
        }
    }
}
