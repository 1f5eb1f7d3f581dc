package io.clrheap.walker.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The spellings of a generic type's name that meet in this project, made one (docs/reference/type-names.md, "Name
 * spelling"): the DAC's, which SOS prints ({@code Dictionary`2[[System.String, System.Private.CoreLib],[System.Object,
 * System.Private.CoreLib]]}), the runtime's GCBulkType events' in {@code live-objects.txt} ({@code
 * Dictionary`2[System.String,System.Object]}: no assemblies) and reflection's assembly-qualified one that a
 * {@code --names} file may hold ({@code [[System.Int32, System.Private.CoreLib, Version=8.0.0.0, Culture=neutral,
 * PublicKeyToken=7cec85d7bea7798e]]}).
 *
 * <p>{@link #canonical} spells a name as the DAC does, as far as the name says: each argument's assembly by its simple
 * name (Version, Culture and PublicKeyToken dropped), an argument with no assembly bare. {@link #matchKey} drops the
 * assemblies altogether, so that a filter matches the same types whichever source named them. A name that does not
 * parse as a type name is returned unchanged.
 */
public final class TypeNameSpelling {

    /** The deepest generic nesting parsed; deeper names are returned unchanged (the metadata reader caps depth at 64). */
    private static final int MAX_DEPTH = 64;

    private TypeNameSpelling() {
    }

    /** {@code name} in the DAC's spelling (simple assembly names only); unchanged when it has no generic arguments. */
    public static String canonical(String name) {
        return render(name);
    }

    /**
     * {@code name} with no assembly names in its generic arguments: {@code A`2[B,C]}, the key filters compare. Works on
     * a part of a name too (a filter's text, {@code Dictionary`2[[System.String} → {@code Dictionary`2[System.String}):
     * one pass, each {@code [} told apart by what precedes and follows it.
     */
    public static String matchKey(String name) {
        if (name.indexOf('[') < 0) {
            return name;
        }
        StringBuilder out = new StringBuilder(name.length());
        char[] frames = new char[MAX_DEPTH]; // 'L' an argument list, 'Q' an [argument, assembly] pair
        int depth = 0;
        int i = 0;
        while (i < name.length()) {
            char c = name.charAt(i);
            if (c == '\\' && i + 1 < name.length()) {
                out.append(c).append(name.charAt(i + 1));
                i += 2;
            } else if (c == '[' && arraySuffixAt(name, i)) {
                int end = name.indexOf(']', i) + 1;
                out.append(name, i, end);
                i = end;
            } else if (c == '[') {
                if (depth == MAX_DEPTH) {
                    return name;
                }
                char last = out.isEmpty() ? 0 : out.charAt(out.length() - 1);
                boolean argumentStart = depth > 0 && frames[depth - 1] == 'L' && (last == '[' || last == ',');
                frames[depth++] = argumentStart ? 'Q' : 'L';
                if (!argumentStart) {
                    out.append('[');
                }
                i++;
            } else if (c == ',' && depth > 0 && frames[depth - 1] == 'Q') {
                while (i < name.length() && name.charAt(i) != ']') { // the assembly: dropped
                    i += name.charAt(i) == '\\' && i + 1 < name.length() ? 2 : 1;
                }
            } else if (c == ',' && depth > 0) {
                out.append(',');
                i++;
                while (i < name.length() && name.charAt(i) == ' ') {
                    i++;
                }
            } else if (c == ']' && depth > 0) {
                if (frames[--depth] == 'L') {
                    out.append(']');
                }
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static boolean arraySuffixAt(String s, int i) {
        int j = i + 1;
        while (j < s.length() && (s.charAt(j) == ',' || s.charAt(j) == '*')) {
            j++;
        }
        return j < s.length() && s.charAt(j) == ']';
    }

    private static String render(String name) {
        if (name.indexOf('[') < 0) {
            return name;
        }
        Parser p = new Parser(name);
        TypeName t = p.type(0);
        if (t == null || p.at != name.length()) {
            return name;
        }
        StringBuilder out = new StringBuilder(name.length());
        t.appendTo(out);
        return out.toString();
    }

    /** A parsed name: its own text, its arguments (each with its assembly, or null) and its array suffixes. */
    private record TypeName(String simple, List<TypeName> arguments, List<String> assemblies, String arraySuffix) {

        void appendTo(StringBuilder out) {
            out.append(simple);
            if (!arguments.isEmpty()) {
                out.append('[');
                for (int i = 0; i < arguments.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    String assembly = assemblies.get(i);
                    if (assembly != null) {
                        out.append('[');
                        arguments.get(i).appendTo(out);
                        out.append(", ").append(assembly).append(']');
                    } else {
                        arguments.get(i).appendTo(out);
                    }
                }
                out.append(']');
            }
            out.append(arraySuffix);
        }
    }

    private static final class Parser {
        private final String s;
        private int at;

        Parser(String s) {
            this.s = s;
        }

        /** A type name from {@code at}: the simple part, generic arguments, array suffixes; null if malformed. */
        TypeName type(int depth) {
            if (depth > MAX_DEPTH) {
                return null;
            }
            int start = at;
            while (at < s.length() && "[],".indexOf(s.charAt(at)) < 0) {
                at += s.charAt(at) == '\\' && at + 1 < s.length() ? 2 : 1;
            }
            String simple = s.substring(start, at).strip();
            if (simple.isEmpty()) {
                return null;
            }
            List<TypeName> arguments = new ArrayList<>();
            List<String> assemblies = new ArrayList<>();
            if (at < s.length() && s.charAt(at) == '[' && !arraySuffixAt(at)) {
                at++;
                do {
                    if (!argument(depth, arguments, assemblies)) {
                        return null;
                    }
                } while (at < s.length() && s.charAt(at) == ',' && ++at > 0);
                if (at >= s.length() || s.charAt(at) != ']') {
                    return null;
                }
                at++;
            }
            int suffix = at;
            while (at < s.length() && arraySuffixAt(at)) {
                at = s.indexOf(']', at) + 1;
            }
            return new TypeName(simple, List.copyOf(arguments), assemblies, s.substring(suffix, at));
        }

        /** One generic argument: {@code [Type, Assembly...]} or a bare {@code Type}. */
        private boolean argument(int depth, List<TypeName> arguments, List<String> assemblies) {
            while (at < s.length() && s.charAt(at) == ' ') {
                at++;
            }
            if (at < s.length() && s.charAt(at) == '[') {
                at++;
                TypeName t = type(depth + 1);
                if (t == null) {
                    return false;
                }
                String assembly = null;
                if (at < s.length() && s.charAt(at) == ',') {
                    int start = ++at;
                    while (at < s.length() && s.charAt(at) != ']') {
                        at += s.charAt(at) == '\\' && at + 1 < s.length() ? 2 : 1;
                    }
                    String qualified = s.substring(start, Math.min(at, s.length())).strip();
                    int comma = qualified.indexOf(',');
                    assembly = (comma < 0 ? qualified : qualified.substring(0, comma)).strip(); // Version, Culture, PublicKeyToken dropped
                }
                if (at >= s.length() || s.charAt(at) != ']') {
                    return false;
                }
                at++;
                arguments.add(t);
                assemblies.add(assembly == null || assembly.isEmpty() ? null : assembly);
                return true;
            }
            TypeName t = type(depth + 1);
            if (t == null) {
                return false;
            }
            arguments.add(t);
            assemblies.add(null);
            return true;
        }

        /** Whether an array suffix ({@code []}, {@code [,]}, {@code [*]}) starts at {@code i}. */
        private boolean arraySuffixAt(int i) {
            return s.charAt(i) == '[' && TypeNameSpelling.arraySuffixAt(s, i);
        }
    }
}
