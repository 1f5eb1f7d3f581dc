package io.clrheap.emulator.scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * A type name as the runtime prints it and as a scenario may use it: {@code [Namespace.]Name(+Nested)*} followed by
 * array suffixes ({@code []} for a single-dimensional array, {@code [*]} for a multi-dimensional array of rank 1,
 * {@code [,]}, {@code [,,]}… for rank 2, 3…; TypeNameBuilder::AddArray in typestring.cpp). The emulator
 * gives each such name a TypeDef (and NestedClass rows) in ECMA-335 metadata, and the runtime composes the name back
 * from them (docs/reference/type-names.md, "In the emulator"): namespace and name of the outermost type joined by
 * {@code .}, nested types by {@code +}, the array suffixes after the element's name.
 *
 * <p>Only names that compose back exactly are accepted. The runtime's type name printer escapes
 * {@code , [ ] & * + \} inside a name with a backslash (typestring.cpp, TypeNameBuilder::EscapeName;
 * https://github.com/dotnet/runtime/blob/main/src/coreclr/vm/typestring.cpp), so those characters, which would print
 * differently, are refused inside a name; so are white space and empty parts. Generic instantiations
 * ({@code List`1[System.Int32]}) are not emulated.
 *
 * @param namespace the namespace of the outermost type: everything before the last {@code .} of its name ("" for none)
 * @param nesting   the type names from the outermost to the type itself (one for a type that is not nested)
 * @param suffixes  the array suffixes, innermost element first: {@code System.Int32[][,]} has {@code [], [,]}
 */
public record TypeName(String namespace, List<String> nesting, List<String> suffixes) {

    /** The suffix of a single-dimensional, zero-based array. */
    public static final String SZ_ARRAY = "[]";

    /** The suffix of a multi-dimensional array of {@code rank}: {@code [*]} for rank 1, else a comma between dimensions. */
    public static String mdArraySuffix(int rank) {
        return rank == 1 ? "[*]" : "[" + ",".repeat(rank - 1) + "]";
    }

    /** The characters the runtime's printer escapes (TypeNameBuilder::EscapeName's list: {@code ,[]&*+\}). */
    static final String ESCAPED = ",[]&*+\\";

    public TypeName {
        nesting = List.copyOf(nesting);
        suffixes = List.copyOf(suffixes);
    }

    /**
     * Parses {@code name}.
     *
     * @throws IllegalArgumentException naming the type and what does not fit
     */
    public static TypeName parse(String name) {
        String rest = name;
        List<String> ranks = new ArrayList<>();
        while (rest.endsWith("]")) {
            int open = rest.lastIndexOf('[');
            String inside = open < 0 ? "?" : rest.substring(open + 1, rest.length() - 1);
            if (open <= 0 || !(inside.equals("*") || inside.chars().allMatch(c -> c == ','))) {
                throw refused(name, "an array suffix is [], [*] or [,], [,,]… (generic instantiations are not emulated)");
            }
            ranks.add(0, rest.substring(open));
            rest = rest.substring(0, open);
        }
        String[] parts = rest.split("\\+", -1);
        List<String> nesting = new ArrayList<>();
        String namespace = "";
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (i == 0) {
                int dot = part.lastIndexOf('.');
                namespace = dot < 0 ? "" : part.substring(0, dot);
                part = part.substring(dot + 1);
                for (String segment : dot < 0 ? new String[0] : namespace.split("\\.", -1)) {
                    check(name, segment, "namespace part");
                }
            } else if (part.contains(".")) {
                // the runtime prints a nested type's name as it is: a '.' in it would read as a namespace
                throw refused(name, "a nested type's name has no '.'");
            }
            check(name, part, "type name");
            nesting.add(part);
        }
        return new TypeName(namespace, nesting, ranks);
    }

    private static void check(String name, String part, String what) {
        if (part.isEmpty()) {
            throw refused(name, "a " + what + " is empty");
        }
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (ESCAPED.indexOf(c) >= 0 || Character.isWhitespace(c) || Character.isISOControl(c)) {
                throw refused(name, String.format("'%s' in a %s (the runtime would print it escaped or split the name there)", c, what));
            }
        }
    }

    private static IllegalArgumentException refused(String name, String why) {
        return new IllegalArgumentException("type name '" + name + "' is not [Namespace.]Name(+Nested)* followed by array suffixes: " + why);
    }

    /** Whether it names an array type. */
    public boolean isArray() {
        return !suffixes.isEmpty();
    }

    /** The outermost array suffix ("" when it is not an array). */
    public String lastSuffix() {
        return suffixes.isEmpty() ? "" : suffixes.get(suffixes.size() - 1);
    }

    /** The name of the type without any array suffix: the innermost element of an array, the type itself otherwise. */
    public String definitionName() {
        String n = String.join("+", nesting);
        return namespace.isEmpty() ? n : namespace + "." + n;
    }

    /** The enclosing type's name, when nested. */
    public TypeName enclosing() {
        if (nesting.size() < 2 || isArray()) {
            throw new IllegalStateException(definitionName() + " is not a nested type");
        }
        return new TypeName(namespace, nesting.subList(0, nesting.size() - 1), List.of());
    }

    /** The type's own simple name: the last of {@link #nesting}. */
    public String simpleName() {
        return nesting.get(nesting.size() - 1);
    }

    /** Whether it is nested in another type. */
    public boolean nested() {
        return nesting.size() > 1;
    }
}
