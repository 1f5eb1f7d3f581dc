package io.clrheap.layout;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything clrheap knows about the in-memory layout of one runtime (version, OS, architecture, GC flavour):
 * the structures with their field offsets, the constants, the descriptor globals and contracts, and the
 * {@code g_dacTable} of each known build. Immutable; one per target, so targets of different runtimes live
 * side by side.
 *
 * @param version     the runtime major version
 * @param gc          server or workstation GC
 * @param os          {@code linux}
 * @param arch        {@code x64}
 * @param profileName the resource files it was read from, e.g. {@code coreclr-linux-x64.json + net8.0.json#server}
 * @param builds      the released builds this profile was checked against, newest first
 * @param types       structures by name, in profile order
 * @param constants   constants by dotted name
 * @param globals     descriptor globals by name
 * @param contracts   cDAC contract versions the runtime declares (empty before .NET 9)
 * @param dacFieldOrder for the DAC's published field-offset arrays ({@code gc_heap_field_offsets},
 *                    {@code generation_field_offsets}): structure name → field names in array order
 * @param sources     source key → citation
 */
public record RuntimeLayout(
        RuntimeVersion version,
        GcFlavor gc,
        String os,
        String arch,
        String profileName,
        List<RuntimeBuild> builds,
        Map<String, TypeLayout> types,
        Map<String, Constant> constants,
        Map<String, GlobalValue> globals,
        Map<String, Integer> contracts,
        Map<String, List<String>> dacFieldOrder,
        Map<String, String> sources) {

    public RuntimeLayout {
        builds = List.copyOf(builds);
        types = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(types));
        constants = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(constants));
        globals = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(globals));
        contracts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(contracts));
        dacFieldOrder = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(dacFieldOrder));
        sources = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(sources));
    }

    /** e.g. {@code net8.0 server (linux-x64)}. */
    public String describe() {
        return version.moniker() + " " + gc.id() + " (" + os + "-" + arch + ")";
    }

    public Optional<TypeLayout> findType(String name) {
        return Optional.ofNullable(types.get(name));
    }

    /** @throws LayoutException naming the profile when the structure is not in it */
    public TypeLayout type(String name) {
        TypeLayout t = types.get(name);
        if (t == null) {
            throw new LayoutException("structure '" + name + "' is not in the " + describe() + " profile");
        }
        return t;
    }

    /** @throws LayoutException naming the profile, structure and field when the field is not in it */
    public FieldLayout field(String type, String field) {
        return type(type).findField(field).orElseThrow(() -> new LayoutException(
                "field '" + type + "." + field + "' is not in the " + describe() + " profile"));
    }

    /** Shorthand for the offset of {@code type.field}. */
    public long offset(String type, String field) {
        return field(type, field).offset();
    }

    /** @throws LayoutException naming the profile when the constant is not in it */
    public long constant(String name) {
        Constant c = constants.get(name);
        if (c == null) {
            throw new LayoutException("constant '" + name + "' is not in the " + describe() + " profile");
        }
        return c.value();
    }

    /** The newest known build, e.g. 8.0.30. */
    public RuntimeBuild primaryBuild() {
        if (builds.isEmpty()) {
            throw new IllegalStateException(profileName + " lists no build yet: `clrheap derive-profile` records one from a process or dump of it");
        }
        return builds.get(0);
    }

    /**
     * The known build nearest to {@code version} by patch number (the older of two as near), among those whose
     * {@code g_dacTable} has {@code tableLength} entries (any, when empty): whose layout another build of this version
     * is walked or derived with.
     */
    public Optional<RuntimeBuild> nearestBuild(String version, java.util.OptionalInt tableLength) {
        int patch = BuildIdentity.patchOf(version);
        return builds.stream().filter(b -> tableLength.isEmpty() || b.dacTable().length() == tableLength.getAsInt())
                .min(java.util.Comparator.<RuntimeBuild>comparingInt(b -> Math.abs(BuildIdentity.patchOf(b.version()) - patch))
                        .thenComparingInt(b -> BuildIdentity.patchOf(b.version()) < patch ? 0 : 1));
    }

    /** The known build whose {@code g_dacTable} has {@code length} entries. */
    public Optional<RuntimeBuild> buildWithDacTableLength(int length) {
        return builds.stream().filter(b -> b.dacTable().length() == length).findFirst();
    }
}
