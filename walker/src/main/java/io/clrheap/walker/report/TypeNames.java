package io.clrheap.walker.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Type names by MethodTable, for dumps that do not carry them. Read from a text file of {@code mt type} lines or
 * of {@code address size mt type} lines (the runtime heap snapshot's {@code live-objects.txt}); {@code #} starts
 * a comment line.
 */
public final class TypeNames {

    private static final TypeNames NONE = new TypeNames(Map.of());

    private final Map<Long, String> names;

    private TypeNames(Map<Long, String> names) {
        this.names = names;
    }

    public static TypeNames none() {
        return NONE;
    }

    public static TypeNames of(Map<Long, String> names) {
        return new TypeNames(Map.copyOf(names));
    }

    /** @throws IOException naming the file and line when a line is neither form */
    public static TypeNames load(Path file) throws IOException {
        Map<Long, String> names = new HashMap<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] t = line.split("\\s+", 4);
                try {
                    if (t.length == 4 && isHex(t[0]) && isHex(t[2])) {
                        names.putIfAbsent(parseHex(t[2]), t[3]);
                    } else if (t.length >= 2 && isHex(t[0])) {
                        names.putIfAbsent(parseHex(t[0]), line.substring(t[0].length()).strip());
                    } else {
                        throw new NumberFormatException("no MethodTable");
                    }
                } catch (NumberFormatException e) {
                    throw new IOException(file + ":" + number + ": expected 'mt type' or 'address size mt type', found: " + line);
                }
            }
        }
        return new TypeNames(names);
    }

    private static boolean isHex(String s) {
        return s.startsWith("0x") || s.startsWith("0X");
    }

    private static long parseHex(String s) {
        return Long.parseUnsignedLong(s.substring(2), 16);
    }

    public Optional<String> name(long methodTable) {
        return Optional.ofNullable(names.get(methodTable));
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
        String n = names.get(methodTable);
        return n != null ? n : String.format("Unknown (MethodTable: 0x%x)", methodTable);
    }
}
