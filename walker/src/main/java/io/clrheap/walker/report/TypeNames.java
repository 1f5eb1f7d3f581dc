package io.clrheap.walker.report;

import io.clrheap.walker.source.TypeNameTable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import io.clrheap.walker.metadata.MethodTableNames;
import io.clrheap.walker.metadata.ModuleMetadata;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.metadata.TypeNameLookup;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.LongStream;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Type names by MethodTable, from one or more sources asked in order: the ECMA-335 metadata of the modules in the
 * dump ({@link MethodTableNames}, the DAC's spelling, which SOS prints), then names a dump carries (a clrheap
 * fixture's name note) or a file gives ({@code --names}): {@code mt type} lines or {@code address size mt type} lines
 * (the runtime heap snapshot's {@code live-objects.txt}); {@code #} starts a comment line.
 *
 * <p>Held compactly ({@link TypeNameTable}): one sorted {@code long[]} of MethodTables and one UTF-8 blob, one name
 * per MethodTable however often a list repeats it; a {@link String} is made when a name is asked for. A file is read
 * through a mapping, line by line, never whole as text; a line longer than {@link TypeNameTable#MAX_LINE_BYTES} is
 * refused.
 */
public final class TypeNames {

    /** The most modules {@link #missingMetadataNote} names one by one. */
    static final int MODULES_NAMED = 5;

    private static final TypeNames NONE = new TypeNames(null, TypeNameTable.empty(), null);

    private final MethodTableNames metadata; // null: no metadata source
    private final TypeNameTable names;
    private final TypeNames next;            // asked when neither of these names a MethodTable; null at the end
    private final Set<Long> unknown = ConcurrentHashMap.newKeySet(); // MethodTables display() printed by address

    private TypeNames(MethodTableNames metadata, TypeNameTable names, TypeNames next) {
        this.metadata = metadata;
        this.names = names;
        this.next = next;
    }

    private TypeNames(TypeNameTable names) {
        this(null, names, null);
    }

    /** Names read from the metadata of the modules in the dump ({@code metadata}), and nothing else. */
    public static TypeNames fromMetadata(MethodTableNames metadata) {
        return new TypeNames(metadata, TypeNameTable.empty(), null);
    }

    /**
     * These names, then {@code fallback}'s for the MethodTables these do not name (e.g. the metadata of the dump, then
     * a names file for the modules whose images the dump lacks).
     */
    public TypeNames orElse(TypeNames fallback) {
        if (fallback == null || fallback == NONE) {
            return this;
        }
        if (this == NONE) {
            return fallback;
        }
        return new TypeNames(metadata, names, next == null ? fallback : next.orElse(fallback));
    }

    /** The metadata source, when these names read the dump's metadata. */
    public Optional<MethodTableNames> metadata() {
        return Optional.ofNullable(metadata).or(() -> next == null ? Optional.empty() : next.metadata());
    }

    /**
     * The modules reached while naming whose metadata is not in the dump (trimmed dumps drop read-only file mappings):
     * their types are named by a later source, or print as {@code Unknown}.
     */
    public List<ModuleMetadata> modulesWithoutMetadata() {
        return metadata().map(m -> m.modules().stream().filter(x -> !x.found()).toList()).orElse(List.of());
    }

    public static TypeNames none() {
        return NONE;
    }

    /** The names of {@code names}; a {@link TypeNameTable} (what the dump readers return) is used as it is. */
    public static TypeNames of(Map<Long, String> names) {
        return names.isEmpty() ? NONE : new TypeNames(TypeNameTable.copyOf(names));
    }

    /** @throws IOException naming the file and line when a line is neither form (or is not UTF-8, or too long) */
    public static TypeNames load(Path file) throws IOException {
        try (Arena arena = Arena.ofConfined(); FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size == 0) {
                return NONE;
            }
            MemorySegment text = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            return new TypeNames(TypeNameTable.parse(text, TypeNameTable.Syntax.NAMES_FILE));
        } catch (TypeNameTable.MalformedLineException e) {
            String what = e.problem() == TypeNameTable.Problem.MALFORMED
                    ? "expected 'mt type' or 'address size mt type', found: " + e.found()
                    : e.getMessage().substring(e.getMessage().indexOf(": ") + 2);
            throw new IOException(file + ":" + e.line() + ": " + what, e);
        }
    }

    public Optional<String> name(long methodTable) {
        return Optional.ofNullable(nameOrNull(methodTable));
    }

    private String nameOrNull(long methodTable) {
        if (metadata != null) {
            String n = metadata.lookup(methodTable).nameOrNull();
            if (n != null) {
                return n;
            }
        }
        String n = names.name(methodTable);
        if (n != null) {
            return TypeNameSpelling.canonical(n); // a file's reflection-style names spelled as the metadata's are
        }
        return next == null ? null : next.nameOrNull(methodTable);
    }

    /**
     * What a user should know about the names printed so far, once, or empty: which modules' images the dump lacks
     * (their types print by MethodTable unless a names file names them), e.g. {@code type names: 2 modules have no
     * metadata in the dump, 5 types print as Unknown (--names FILE names them): System.Private.CoreLib.dll (module
     * 0x7f…: 8 bytes at 0x7f… are not in core: …), …}.
     */
    public Optional<String> missingMetadataNote() {
        List<ModuleMetadata> missing = modulesWithoutMetadata();
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder s = new StringBuilder("type names: ").append(missing.size()).append(missing.size() == 1 ? " module has" : " modules have")
                .append(" no metadata in the dump");
        s.append(unknown.isEmpty() ? " (another source named their types)"
                : ", " + unknown.size() + (unknown.size() == 1 ? " type prints" : " types print") + " as Unknown (--names FILE names them)");
        String separator = ": ";
        for (ModuleMetadata m : missing.subList(0, Math.min(missing.size(), MODULES_NAMED))) {
            s.append(separator).append(m.file().isEmpty() ? "?" : m.file()).append(String.format(" (module 0x%x: %s)", m.module(), m.problem()));
            separator = "; ";
        }
        if (missing.size() > MODULES_NAMED) {
            s.append("; and ").append(missing.size() - MODULES_NAMED).append(" more");
        }
        return Optional.of(s.toString());
    }

    /**
     * The corrupt metadata met naming {@code methodTables}: one {@link ProblemKind#CORRUPT_METADATA} per corrupt
     * address (a missing image, as in a trimmed dump, is no problem of the dump). For {@code walk --verify}.
     */
    public List<Problem> metadataProblems(LongStream methodTables) {
        MethodTableNames md = metadata().orElse(null);
        if (md == null) {
            return List.of();
        }
        Map<Long, Problem> byAddress = new LinkedHashMap<>();
        methodTables.forEach(mt -> {
            if (md.lookup(mt) instanceof TypeNameLookup.Unnamed u && u.corrupt() && !byAddress.containsKey(u.address())) {
                byAddress.put(u.address(), new Problem(ProblemKind.CORRUPT_METADATA, u.address(), "type names",
                        String.format("the type of MethodTable 0x%x cannot be named: %s", mt, u.reason())));
            }
        });
        return List.copyOf(byAddress.values());
    }

    /** True when no source can name anything: no metadata and no names given. */
    public boolean isEmpty() {
        return metadata == null && names.isEmpty() && (next == null || next.isEmpty());
    }

    /** How many MethodTables the given names (not the metadata) name. */
    public int size() {
        return names.size() + (next == null ? 0 : next.size());
    }

    /** The name to print: the known name, {@code Free} for the free-object MethodTable, else the MethodTable. */
    public String display(long methodTable, long freeMethodTable) {
        if (methodTable == freeMethodTable) {
            return "Free";
        }
        String n = nameOrNull(methodTable);
        if (n == null) {
            unknown.add(methodTable);
            return String.format("Unknown (MethodTable: 0x%x)", methodTable);
        }
        return n;
    }
}
