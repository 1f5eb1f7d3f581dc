package io.clrheap.conformance;

/**
 * What kind of difference conform found between a walker's output and the answer key. A walker with two bugs makes
 * two kinds of difference: the runner counts each kind and shows examples of every kind, so the second bug is not
 * hidden behind the first one's thousands of lines.
 */
public enum DifferenceKind {
    /** A line of the walker's output that starts like a row of the expected format but does not parse. */
    UNPARSABLE_LINE("unparsable-line", "unparsable line"),
    MISSING_OBJECT("missing-object", "missing object"),
    EXTRA_OBJECT("extra-object", "extra object"),
    WRONG_METHOD_TABLE("wrong-method-table", "wrong MethodTable"),
    WRONG_SIZE("wrong-size", "wrong size"),
    MISSING_TYPE("missing-type", "missing type"),
    EXTRA_TYPE("extra-type", "extra type"),
    WRONG_COUNT("wrong-count", "wrong count"),
    WRONG_TOTAL("wrong-total", "wrong total"),
    NO_TOTAL("no-total", "no Total line"),
    MISSING_REFERENCES("missing-references", "missing references"),
    EXTRA_REFERENCES("extra-references", "extra references"),
    WRONG_REFERENCES("wrong-references", "wrong references"),
    MISSING_LIVE_OBJECT("missing-live-object", "missing live object"),
    EXTRA_LIVE_OBJECT("extra-live-object", "extra live object"),
    MISSING_ROOT("missing-root", "missing root"),
    EXTRA_ROOT("extra-root", "extra root"),
    MISSING_FIELD("missing-field", "missing field"),
    EXTRA_FIELD("extra-field", "extra field"),
    WRONG_FIELD("wrong-field", "wrong field"),
    /** eeheap and gchandles text: a line of the key the output ends before. */
    MISSING_LINE("missing-line", "missing line"),
    /** eeheap and gchandles text: a line after the key's last one. */
    EXTRA_LINE("extra-line", "extra line"),
    /** eeheap and gchandles text: a line whose words are not the key's. */
    WRONG_LINE("wrong-line", "wrong line");

    private final String id;
    private final String label;

    DifferenceKind(String id, String label) {
        this.id = id;
        this.label = label;
    }

    /** A stable name for machines: the HTML report's {@code data-kind}. */
    public String id() {
        return id;
    }

    /** How a person says it, the prefix of each of its lines: {@code wrong size}. */
    public String label() {
        return label;
    }
}
