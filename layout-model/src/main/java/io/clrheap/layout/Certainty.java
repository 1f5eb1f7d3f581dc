package io.clrheap.layout;

import java.util.Locale;

/** How a layout fact is known. */
public enum Certainty {
    /** Written explicitly in the runtime's own source (an offset table, a {@code #define}, a static_assert). */
    SOURCE("source", "read from runtime source"),
    /** Seen in the memory of a real .NET process (a dump in golden/real or one like it). */
    DUMP("dump", "seen in a real dump"),
    /** Derived: declaration order plus x64 alignment, or arithmetic on other facts. */
    INFERRED("inferred", "inferred");

    private final String id;
    private final String description;

    Certainty(String id, String description) {
        this.id = id;
        this.description = description;
    }

    public String id() {
        return id;
    }

    public String description() {
        return description;
    }

    public static Certainty parse(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        for (Certainty c : values()) {
            if (c.id.equals(t)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown certainty '" + text + "'; known: source, dump, inferred");
    }
}
