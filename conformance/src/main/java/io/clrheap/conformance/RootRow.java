package io.clrheap.conformance;

import java.util.Locale;

/**
 * One row of roots.tsv ({@code kind root object flags thread}, docs/answer-key.md), in the canonical form two rows are
 * compared in: the root a lowercase {@code 0x} hex address or a register name, the flags those of {@link #FLAGS} in that
 * order ({@code -} for none; {@code conservative}, which a walker may print on stack rows, is not one of them), the thread
 * an OS id in decimal or {@code -}.
 */
record RootRow(String kind, String root, long object, String flags, String thread) {

    /** The flags a row may carry, in the order they are listed. */
    static final String[] FLAGS = {"pinned", "weak", "interior"};
    /** A flag a walker may add to its stack rows, which the comparison ignores. */
    static final String CONSERVATIVE = "conservative";
    /** The kinds of roots.tsv. */
    static final java.util.Set<String> KINDS = java.util.Set.of("strong", "pinned", "weak-short", "weak-long", "dependent", "async-pinned", "sized-ref",
            "refcounted", "variable", "weak-native-com", "weak-interior-pointer", "finalizer", "finalizable", "stack");

    /**
     * The row of the columns {@code kind root object flags thread}, made canonical; a column that is not what the format
     * says is a {@link NumberFormatException} naming it.
     */
    static RootRow parse(String[] columns) {
        String kind = columns[0];
        if (!KINDS.contains(kind)) {
            throw new NumberFormatException("the kind '" + WalkerOutput.quote(kind, 40) + "' is not one of roots.tsv's (" + String.join(", ",
                    new java.util.TreeSet<>(KINDS)) + ")");
        }
        String root = columns[1].toLowerCase(Locale.ROOT);
        if (root.startsWith("0x")) {
            root = "0x" + Long.toHexString(WalkerOutput.hex(root.substring(2), "root address"));
        } else if (!root.matches("r(ax|bx|cx|dx|si|di|bp|[89]|1[0-5])")) {
            throw new NumberFormatException("the root '" + WalkerOutput.quote(columns[1], 40) + "' is neither a 0x hex address nor a register (rax ... r15 but rsp)");
        }
        if (!columns[2].startsWith("0x")) {
            throw new NumberFormatException("the object '" + WalkerOutput.quote(columns[2], 40) + "' is not a 0x hex address");
        }
        long object = WalkerOutput.hex(columns[2].substring(2), "object");
        java.util.Set<String> given = new java.util.HashSet<>();
        if (!columns[3].equals("-")) {
            for (String f : columns[3].split(",")) {
                if (!f.equals(CONSERVATIVE) && !java.util.Arrays.asList(FLAGS).contains(f)) {
                    throw new NumberFormatException("the flag '" + WalkerOutput.quote(f, 40) + "' is none of pinned, weak, interior, conservative");
                }
                given.add(f);
            }
        }
        StringBuilder flags = new StringBuilder();
        for (String f : FLAGS) {
            if (given.contains(f)) {
                flags.append(flags.isEmpty() ? "" : ",").append(f);
            }
        }
        String thread = columns[4];
        if (!thread.equals("-")) {
            thread = Long.toString(WalkerOutput.number(thread, "thread id"));
        }
        return new RootRow(kind, root, object, flags.isEmpty() ? "-" : flags.toString(), thread);
    }

    /** The row as roots.tsv would hold it, spaces between the columns. */
    String describe() {
        return String.format(Locale.ROOT, "%s %s 0x%x %s %s", kind, root, object, flags, thread);
    }
}
