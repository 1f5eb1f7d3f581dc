package io.clrheap.walker.source.bundle;

import java.nio.charset.StandardCharsets;

/**
 * The rules an entry name of a bundle must follow, so that no name can escape a directory it is extracted to, on any
 * system: relative, {@code /}-separated, at most {@link #MAX_BYTES} bytes of UTF-8; no empty, {@code .} or
 * {@code ..} component; no backslash, NUL or other control character; no drive letter ({@code :}).
 */
final class EntryNames {

    static final int MAX_BYTES = 1024;
    static final String MEMORY = "memory/";
    static final String ANSWER = "answer/";
    static final String TYPE_NAMES = "type-names.txt";

    private EntryNames() {
    }

    /** What is wrong with {@code name}, or null when it is acceptable. */
    static String problem(String name) {
        if (name.isEmpty()) {
            return "an empty entry name";
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            return "an entry name longer than " + MAX_BYTES + " bytes";
        }
        if (name.indexOf('\0') >= 0) {
            return "an entry name with a NUL character";
        }
        if (name.startsWith("/")) {
            return "an absolute entry name";
        }
        if (name.indexOf('\\') >= 0) {
            return "an entry name with a backslash";
        }
        if (name.indexOf(':') >= 0) {
            return "an entry name with a ':' (a drive letter or stream)";
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            return "an entry name with a control character";
        }
        for (String part : name.split("/", -1)) {
            if (part.equals("..")) {
                return "an entry name with a '..' component (a path escape)";
            }
            if (part.isEmpty() || part.equals(".")) {
                return "an entry name with an empty or '.' component";
            }
        }
        return null;
    }

    /** True for the names a format-1 bundle may hold besides its manifest. */
    static boolean isKnown(String name) {
        return name.equals(TYPE_NAMES) || (name.startsWith(MEMORY) && name.length() > MEMORY.length())
                || (name.startsWith(ANSWER) && name.length() > ANSWER.length());
    }
}
