package io.clrheap.conformance;

import java.util.AbstractList;
import java.util.List;

/**
 * The lines of a walker's output that did not parse: a list of the problems described, one line each (identical
 * problems collapsed into one line with their count, at most {@link WalkerOutput#PROBLEMS} described), and how many
 * lines had a problem in all — what conform counts as unparsable lines.
 */
public final class ParseProblems extends AbstractList<String> {

    static final ParseProblems NONE = new ParseProblems(List.of(), 0);

    private final List<String> described;
    private final long lines;
    private final boolean complete;

    ParseProblems(List<String> described, long lines) {
        this(described, lines, true);
    }

    /** @param complete whether every problem is described (else the last line counts the others) */
    ParseProblems(List<String> described, long lines, boolean complete) {
        this.described = List.copyOf(described);
        this.lines = lines;
        this.complete = complete;
    }

    /** Whether the lines describe every problem (identical ones collapsed), none left only counted. */
    public boolean complete() {
        return complete;
    }

    /** How many problems there were, each collapsed one counted as often as it occurred. */
    public long lines() {
        return lines;
    }

    @Override
    public String get(int index) {
        return described.get(index);
    }

    @Override
    public int size() {
        return described.size();
    }
}
