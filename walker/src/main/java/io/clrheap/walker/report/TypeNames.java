package io.clrheap.walker.report;

import io.clrheap.walker.source.TypeNameTable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;

/**
 * Type names by MethodTable, for dumps that do not carry them. Read from a text file of {@code mt type} lines or
 * of {@code address size mt type} lines (the runtime heap snapshot's {@code live-objects.txt}); {@code #} starts
 * a comment line.
 *
 * <p>Held compactly ({@link TypeNameTable}): one sorted {@code long[]} of MethodTables and one UTF-8 blob, one name
 * per MethodTable however often a list repeats it; a {@link String} is made when a name is asked for. A file is read
 * through a mapping, line by line, never whole as text; a line longer than {@link TypeNameTable#MAX_LINE_BYTES} is
 * refused.
 */
public final class TypeNames {

    private static final TypeNames NONE = new TypeNames(TypeNameTable.empty());

    private final TypeNameTable names;

    private TypeNames(TypeNameTable names) {
        this.names = names;
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
        return Optional.ofNullable(names.name(methodTable));
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    public int size() {
        return names.size();
    }

    /** The name to print: the known name, {@code Free} for the free-object MethodTable, else the MethodTable. */
    public String display(long methodTable, long freeMethodTable) {
        if (methodTable == freeMethodTable) {
            return "Free";
        }
        String n = names.name(methodTable);
        return n != null ? n : String.format("Unknown (MethodTable: 0x%x)", methodTable);
    }
}
