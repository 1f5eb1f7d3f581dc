package io.clrheap.layout;

import java.util.Locale;

/** Server GC (one {@code gc_heap} object per heap) or workstation GC (one heap whose members are statics). */
public enum GcFlavor {
    SERVER("server"),
    WORKSTATION("workstation");

    private final String id;

    GcFlavor(String id) {
        this.id = id;
    }

    /** The name used in profile files and on the command line. */
    public String id() {
        return id;
    }

    /** Accepts {@code server}, {@code svr}, {@code workstation}, {@code wks} (any case). */
    public static GcFlavor parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "server", "svr" -> SERVER;
            case "workstation", "wks" -> WORKSTATION;
            default -> throw new IllegalArgumentException("unknown GC flavour '" + text + "'; known: server, workstation");
        };
    }
}
