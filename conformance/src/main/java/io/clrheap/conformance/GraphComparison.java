package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Compares a walker's references ({@code --expect refs}) with the key's references.tsv, its live set
 * ({@code --expect live}) with live.tsv, and its roots ({@code --expect roots}) with roots.tsv. Each difference names
 * the object, with its type and size from objects.tsv, its heap, generation and region from regions.tsv
 * ({@link KeyObjects}) and, for the live set, the roots of roots.tsv that point at it: a walker author sees at once which shape of GC descriptor
 * (a repeating series, a reference in the last word, a second series) or which root kind (a weak handle, a finalizer
 * entry) it gets wrong. Frozen segments' objects are live (never collected; the runtime's own heap snapshot lists
 * them live), and live.tsv lists them: a walker that leaves them out misses them.
 */
public final class GraphComparison {

    /** The answer key files compared, and their headers. */
    public static final String REFERENCES = "references.tsv";
    public static final String LIVE = "live.tsv";
    public static final String ROOTS = "roots.tsv";
    static final String ROOTS_HEADER = "kind\troot\tobject\tflags\tthread";
    private static final String REFERENCES_HEADER = "from\toffset\tto";
    private static final String LIVE_HEADER = "address";

    /** Targets shown per list in a difference. */
    static final int SHOWN_TARGETS = 8;

    private GraphComparison() {
    }

    /** The walker's references against references.tsv, object by object; each object's targets in field order. */
    public static Comparison.Result references(ReferenceListing actual, Path answerDir) throws IOException {
        Differences d = new Differences(KeyRegions.of(answerDir));
        d.addProblems(actual.problems());
        try (Groups key = new Groups(new KeyTable(answerDir.resolve(REFERENCES), REFERENCES_HEADER))) {
            Group x = key.next();
            int i = 0;
            while (x != null || i < actual.size()) {
                if (i >= actual.size() || (x != null && Long.compareUnsigned(x.from, actual.source(i)) < 0)) {
                    d.add(DifferenceKind.MISSING_REFERENCES, x.from, null, String.format(Locale.ROOT, "missing references: 0x%x", x.from), String.format(Locale.ROOT,
                            " holds %s, none reported: expected %s", references(x.targets.length), expected(x)));
                    x = key.next();
                } else if (x == null || Long.compareUnsigned(actual.source(i), x.from) < 0) {
                    long[] a = actual.targets(i);
                    d.add(DifferenceKind.EXTRA_REFERENCES, actual.source(i), null, String.format(Locale.ROOT, "extra references: 0x%x", actual.source(i)),
                            String.format(Locale.ROOT, " reported with %s; it holds none: reported %s", references(a.length), reported(a)));
                    i++;
                } else {
                    long[] a = actual.targets(i);
                    if (!java.util.Arrays.equals(a, x.targets)) {
                        d.add(DifferenceKind.WRONG_REFERENCES, x.from, null, String.format(Locale.ROOT, "wrong references: 0x%x", x.from), String.format(Locale.ROOT,
                                ": %d expected, %d reported; %s; expected %s; reported %s", x.targets.length, a.length, firstDifference(x, a),
                                expected(x), reported(a)));
                    }
                    x = key.next();
                    i++;
                }
            }
        }
        return d.result(answerDir, false);
    }

    /** The walker's live objects against live.tsv, as sets. */
    public static Comparison.Result live(LiveListing actual, Path answerDir) throws IOException {
        Differences d = new Differences(KeyRegions.of(answerDir));
        d.addProblems(actual.problems());
        long[] a = actual.addresses();
        try (KeyTable key = new KeyTable(answerDir.resolve(LIVE), LIVE_HEADER)) {
            KeyTable.Row row = key.next();
            long x = row == null ? 0 : key.address(row, 0, "address");
            long previous = 0;
            boolean first = true;
            int i = 0;
            while (row != null || i < a.length) {
                if (row != null && !first && Long.compareUnsigned(previous, x) >= 0) {
                    throw key.fault(row.line(), String.format(Locale.ROOT, "0x%x is not above the address of the line before (0x%x); "
                            + "the rows are not in address order", x, previous), row.columns()[0]);
                }
                if (i >= a.length || (row != null && Long.compareUnsigned(x, a[i]) < 0)) {
                    d.add(DifferenceKind.MISSING_LIVE_OBJECT, x, null, String.format(Locale.ROOT, "missing live object: 0x%x", x), " is reachable from the roots that keep objects alive; not reported");
                } else if (row == null || Long.compareUnsigned(a[i], x) < 0) {
                    d.add(DifferenceKind.EXTRA_LIVE_OBJECT, a[i], null, String.format(Locale.ROOT, "extra live object: 0x%x", a[i]),
                            " reported live; no root that keeps objects alive reaches it");
                    i++;
                    continue;
                } else {
                    i++;
                }
                previous = x;
                first = false;
                row = key.next();
                x = row == null ? 0 : key.address(row, 0, "address");
            }
        }
        return d.result(answerDir, true);
    }

    /**
     * The walker's roots against roots.tsv, as sets of rows: a row of the key the walker did not print is missing, a row
     * it printed that the key lacks is extra; each names the object with its type where objects.tsv has it.
     */
    public static Comparison.Result roots(RootListing actual, Path answerDir) throws IOException {
        Differences d = new Differences(KeyRegions.of(answerDir));
        d.addProblems(actual.problems());
        Set<RootRow> expected = new java.util.LinkedHashSet<>();
        try (KeyTable key = new KeyTable(answerDir.resolve(ROOTS), ROOTS_HEADER)) {
            for (KeyTable.Row row = key.next(); row != null; row = key.next()) {
                try {
                    expected.add(RootRow.parse(row.columns()));
                } catch (NumberFormatException e) {
                    throw key.fault(row.line(), e.getMessage(), String.join("\t", row.columns()));
                }
            }
        }
        for (RootRow x : expected) {
            if (!actual.rows().contains(x)) {
                d.add(DifferenceKind.MISSING_ROOT, x.object(), null, String.format(Locale.ROOT, "missing root: %s %s of 0x%x", x.kind(), x.root(), x.object()),
                        String.format(Locale.ROOT, ", flags %s, thread %s: in roots.tsv, not reported", x.flags(), x.thread()));
            }
        }
        for (RootRow a : actual.rows()) {
            if (!expected.contains(a)) {
                d.add(DifferenceKind.EXTRA_ROOT, a.object(), null, String.format(Locale.ROOT, "extra root: %s %s of 0x%x", a.kind(), a.root(), a.object()),
                        String.format(Locale.ROOT, ", flags %s, thread %s: reported; roots.tsv has no such row", a.flags(), a.thread()));
            }
        }
        return d.result(answerDir, false);
    }

    /** fields.tsv's name and header (docs/answer-key.md). */
    public static final String FIELDS = "fields.tsv";
    static final String FIELDS_HEADER = "object\tfield\tdeclared_type\toffset\tvalue";

    /**
     * The walker's fields against fields.tsv, row by row keyed by object and field name: a row of the key the walker did
     * not print is missing, one the key lacks extra, one whose declared type, offset or value differs wrong.
     */
    public static Comparison.Result fields(FieldListing actual, Path answerDir) throws IOException {
        Differences d = new Differences(KeyRegions.of(answerDir));
        d.addProblems(actual.problems());
        java.util.Set<String> seen = new java.util.HashSet<>();
        try (KeyTable key = new KeyTable(answerDir.resolve(FIELDS), FIELDS_HEADER)) {
            for (KeyTable.Row row = key.next(); row != null; row = key.next()) {
                FieldRow x;
                try {
                    x = FieldRow.parse(row.columns());
                } catch (NumberFormatException e) {
                    throw key.fault(row.line(), e.getMessage(), String.join("\t", row.columns()));
                }
                seen.add(x.key());
                FieldRow a = actual.rows().get(x.key());
                if (a == null) {
                    d.add(DifferenceKind.MISSING_FIELD, x.object(), null, String.format(Locale.ROOT, "missing field: 0x%x", x.object()), " " + x.describe() + ": in fields.tsv, not reported");
                } else if (!a.equals(x)) {
                    d.add(DifferenceKind.WRONG_FIELD, x.object(), null, String.format(Locale.ROOT, "wrong field: 0x%x", x.object()),
                            " " + a.describe() + " reported; fields.tsv has " + x.type() + " at offset " + x.offset() + " = " + x.value());
                }
            }
        }
        for (FieldRow a : actual.rows().values()) {
            if (!seen.contains(a.key())) {
                d.add(DifferenceKind.EXTRA_FIELD, a.object(), null, String.format(Locale.ROOT, "extra field: 0x%x", a.object()), " " + a.describe() + ": reported; fields.tsv has no such field");
            }
        }
        return d.result(answerDir, false);
    }

    private static String references(int n) {
        return n + (n == 1 ? " reference" : " references");
    }

    /** Where the lists part: the field offset and what each side has there. */
    private static String firstDifference(Group x, long[] a) {
        int k = 0;
        while (k < x.targets.length && k < a.length && x.targets[k] == a[k]) {
            k++;
        }
        if (k < x.targets.length) {
            return String.format(Locale.ROOT, "the first difference is reference %d, the field at offset %d: 0x%x expected, %s reported", k + 1,
                    x.offsets[k], x.targets[k], k < a.length ? String.format(Locale.ROOT, "0x%x", a[k]) : "none");
        }
        return String.format(Locale.ROOT, "the first difference is reference %d: none expected (the last reference is %s), 0x%x reported", k + 1,
                x.offsets.length == 0 ? "none" : "at offset " + x.offsets[x.offsets.length - 1], a[k]);
    }

    /** The key's list: {@code 0xTARGET@offset}, the first {@link #SHOWN_TARGETS}. */
    private static String expected(Group x) {
        StringBuilder s = new StringBuilder("[");
        for (int k = 0; k < x.targets.length && k < SHOWN_TARGETS; k++) {
            s.append(k == 0 ? "" : " ").append(String.format(Locale.ROOT, "0x%x@%d", x.targets[k], x.offsets[k]));
        }
        return more(s, x.targets.length);
    }

    /** The walker's list, the first {@link #SHOWN_TARGETS}. */
    private static String reported(long[] a) {
        StringBuilder s = new StringBuilder("[");
        for (int k = 0; k < a.length && k < SHOWN_TARGETS; k++) {
            s.append(k == 0 ? "" : " ").append(String.format(Locale.ROOT, "0x%x", a[k]));
        }
        return more(s, a.length);
    }

    private static String more(StringBuilder s, int n) {
        if (n > SHOWN_TARGETS) {
            s.append(String.format(Locale.ROOT, " … %d more", n - SHOWN_TARGETS));
        }
        return s.append(']').toString();
    }

    /** One object's references in the key: their field offsets and targets, by offset. */
    private record Group(long from, long[] offsets, long[] targets) {
    }

    /** references.tsv read an object at a time, its order checked. */
    private static final class Groups implements AutoCloseable {
        private final KeyTable key;
        private KeyTable.Row pending;
        private long[] pendingValues;
        private long[] previous;

        Groups(KeyTable key) throws AnswerKeyException {
            this.key = key;
            advance();
        }

        private void advance() throws AnswerKeyException {
            pending = key.next();
            if (pending == null) {
                pendingValues = null;
                return;
            }
            long[] v = {key.address(pending, 0, "source address"), key.number(pending, 1, "offset"), key.address(pending, 2, "target address")};
            if (previous != null && (Long.compareUnsigned(previous[0], v[0]) > 0 || (previous[0] == v[0] && previous[1] >= v[1]))) {
                throw key.fault(pending.line(), String.format(Locale.ROOT, "0x%x offset %d is not after 0x%x offset %d; the rows are not sorted by "
                        + "source, then offset", v[0], v[1], previous[0], previous[1]), String.join("\t", pending.columns()));
            }
            previous = v;
            pendingValues = v;
        }

        /** The next object's references, or null at the end. */
        Group next() throws AnswerKeyException {
            if (pendingValues == null) {
                return null;
            }
            long from = pendingValues[0];
            List<long[]> rows = new ArrayList<>();
            while (pendingValues != null && pendingValues[0] == from) {
                rows.add(pendingValues);
                advance();
            }
            long[] offsets = new long[rows.size()];
            long[] targets = new long[rows.size()];
            for (int k = 0; k < rows.size(); k++) {
                offsets[k] = rows.get(k)[1];
                targets[k] = rows.get(k)[2];
            }
            return new Group(from, offsets, targets);
        }

        @Override
        public void close() throws IOException {
            key.close();
        }
    }
}
