package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Compares what a walker printed with a fixture's answer key; counts every difference by its kind, keeps the first of each kind. */
public final class Comparison {

    /**
     * The outcome: how many differences, and per kind their count and first lines — lines that do not parse first,
     * then the most frequent kind first.
     */
    public record Result(long differences, List<DifferencesOfKind> kinds) {
        public Result {
            kinds = List.copyOf(kinds);
        }

        public boolean passed() {
            return differences == 0;
        }

        /** The lines kept, kind after kind. */
        public List<String> first() {
            return kinds.stream().flatMap(k -> k.examples().stream()).toList();
        }

        /** {@code 1,712 wrong size (all gen0), 16 missing object (all loh)}: the count of every kind; empty when it passed. */
        public String summary() {
            return kinds.stream().map(DifferencesOfKind::summary).collect(java.util.stream.Collectors.joining(", "));
        }
    }

    private Comparison() {
    }

    /** The walker's {@code dumpheap -stat} against the key's: per type count and bytes, and the Total line. */
    public static Result stat(WalkerOutput.Stat actual, Path answerDir) throws IOException {
        WalkerOutput.Stat expected = expectedStat(answerDir.resolve("dumpheap-stat.txt"));
        Differences d = new Differences();
        d.addProblems(actual.problems());
        for (Map.Entry<Long, WalkerOutput.StatRow> e : expected.rows().entrySet()) {
            WalkerOutput.StatRow a = actual.rows().get(e.getKey());
            WalkerOutput.StatRow x = e.getValue();
            if (a == null) {
                d.add(DifferenceKind.MISSING_TYPE, String.format("missing type: %s (MethodTable 0x%x): %,d objects, %,d bytes expected, none reported", x.name(), e.getKey(), x.count(), x.bytes()));
            } else if (a.count() != x.count() || a.bytes() != x.bytes()) {
                d.add(DifferenceKind.WRONG_COUNT, String.format("wrong count: %s (MethodTable 0x%x): %,d objects, %,d bytes expected; %,d objects, %,d bytes reported",
                        x.name(), e.getKey(), x.count(), x.bytes(), a.count(), a.bytes()));
            }
        }
        for (Map.Entry<Long, WalkerOutput.StatRow> e : actual.rows().entrySet()) {
            if (!expected.rows().containsKey(e.getKey())) {
                d.add(DifferenceKind.EXTRA_TYPE, String.format("extra type: MethodTable 0x%x (%s) reported with %,d objects, %,d bytes; the heap has none", e.getKey(),
                        e.getValue().name(), e.getValue().count(), e.getValue().bytes()));
            }
        }
        if (actual.totalObjects() == -1) {
            d.add(DifferenceKind.NO_TOTAL, "no 'Total N objects, M bytes' line");
        } else if (actual.totalObjects() < 0) {
            // the Total line did not parse: a problem already says so
        } else if (actual.totalObjects() != expected.totalObjects() || actual.totalBytes() != expected.totalBytes()) {
            d.add(DifferenceKind.WRONG_TOTAL, String.format("wrong total: %,d objects, %,d bytes expected; %,d objects, %,d bytes reported", expected.totalObjects(),
                    expected.totalBytes(), actual.totalObjects(), actual.totalBytes()));
        }
        return d.result();
    }

    /** The walker's object listing (with the lines that did not parse) against objects.tsv. */
    public static Result objects(WalkerOutput.Listing actual, Path answerDir) throws IOException {
        return objects(actual.objects(), actual.problems(), answerDir);
    }

    /** The walker's object listing against objects.tsv, both in address order: missing, extra, wrong MethodTable or size. */
    public static Result objects(List<WalkerOutput.Listed> actual, Path answerDir) throws IOException {
        return objects(actual, ParseProblems.NONE, answerDir);
    }

    private static Result objects(List<WalkerOutput.Listed> actual, ParseProblems problems, Path answerDir) throws IOException {
        Differences d = new Differences(KeyRegions.of(answerDir));
        d.addProblems(problems);
        try (KeyRows key = new KeyRows(answerDir.resolve("objects.tsv"))) {
            KeyObject x = key.next();
            int i = 0;
            while (x != null || i < actual.size()) {
                WalkerOutput.Listed a = i < actual.size() ? actual.get(i) : null;
                if (a == null || (x != null && Long.compareUnsigned(x.address(), a.address()) < 0)) {
                    d.add(DifferenceKind.MISSING_OBJECT, x.address(), x.generation(), String.format("missing object: 0x%x", x.address()),
                            String.format(" with MethodTable 0x%x was not reported", x.mt()));
                    x = key.next();
                } else if (x == null || Long.compareUnsigned(a.address(), x.address()) < 0) {
                    d.add(DifferenceKind.EXTRA_OBJECT, a.address(), null, String.format("extra object: 0x%x", a.address()),
                            String.format(" reported with MethodTable 0x%x, %d bytes", a.mt(), a.size()));
                    i++;
                } else {
                    if (a.mt() != x.mt()) {
                        d.add(DifferenceKind.WRONG_METHOD_TABLE, a.address(), x.generation(), String.format("wrong MethodTable: 0x%x", a.address()),
                                String.format(" has MethodTable 0x%x, reported 0x%x", x.mt(), a.mt()));
                    } else if (a.size() != x.size()) {
                        d.add(DifferenceKind.WRONG_SIZE, a.address(), x.generation(), String.format("wrong size: 0x%x", a.address()),
                                String.format(" is %d bytes, reported %d", x.size(), a.size()));
                    }
                    x = key.next();
                    i++;
                }
            }
        }
        return d.result(answerDir, false);
    }

    /**
     * A row of objects.tsv as the comparison reads it: address, MethodTable and size, the other columns kept as they
     * are ({@code rest}) and read only for a difference.
     */
    private record KeyObject(long address, long mt, long size, String rest) {
        /** The generation column, or null when the row has none. */
        String generation() {
            if (rest == null) {
                return null;
            }
            int tab = rest.indexOf('\t');
            return tab < 0 ? rest : rest.substring(0, tab);
        }
    }

    /** The key's dumpheap-stat.txt: it must parse whole, be UTF-8 and have its Total line. */
    private static WalkerOutput.Stat expectedStat(Path file) throws AnswerKeyException {
        WalkerOutput.Stat expected;
        try {
            expected = WalkerOutput.parseStat(file);
        } catch (IOException e) {
            throw new AnswerKeyException(file, "cannot be read: " + describe(e), e);
        }
        if (!expected.problems().isEmpty()) {
            throw new AnswerKeyException(file, expected.problems().getFirst());
        }
        if (!expected.notes().isEmpty()) {
            throw new AnswerKeyException(file, expected.notes().getFirst());
        }
        if (expected.totalObjects() < 0) {
            throw new AnswerKeyException(file, "has no 'Total N objects, M bytes' line; it is not a dumpheap -stat answer key");
        }
        return expected;
    }

    static String describe(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** The rows of an answer key's objects.tsv, checked: a header, then 'address mt size ...' rows in ascending address order. */
    private static final class KeyRows implements AutoCloseable {
        private final Path file;
        private final OutputLines lines;
        private KeyObject previous;

        KeyRows(Path file) throws AnswerKeyException {
            this.file = file;
            try {
                this.lines = OutputLines.open(file);
                OutputLines.Line header = lines.next();
                if (header == null || header.tooLong() || !header.text().startsWith("address\t")) {
                    throw new AnswerKeyException(file, "line 1: not the header 'address<TAB>mt<TAB>size...'; it is not an objects.tsv answer key");
                }
            } catch (AnswerKeyException e) {
                throw e;
            } catch (IOException e) {
                throw new AnswerKeyException(file, "cannot be read: " + describe(e), e);
            }
        }

        /** The next row, or null at the end. */
        KeyObject next() throws AnswerKeyException {
            OutputLines.Line l;
            try {
                l = lines.next();
            } catch (IOException e) {
                throw new AnswerKeyException(file, "cannot be read: " + describe(e), e);
            }
            if (l == null) {
                return null;
            }
            if (l.tooLong()) {
                throw new AnswerKeyException(file, l.tooLongProblem());
            }
            if (lines.invalidSequences() > 0) {
                throw new AnswerKeyException(file, lines.notes().getFirst());
            }
            KeyObject row;
            try {
                String[] t = l.text().split("\t", 4);
                if (t.length < 3 || !t[0].startsWith("0x") || !t[1].startsWith("0x")) {
                    throw new NumberFormatException("not 'address<TAB>mt<TAB>size...'");
                }
                row = new KeyObject(WalkerOutput.hex(t[0].substring(2), "address"), WalkerOutput.hex(t[1].substring(2), "MethodTable"),
                        WalkerOutput.number(t[2], "size"), t.length > 3 ? t[3] : null);
            } catch (NumberFormatException e) {
                throw new AnswerKeyException(file, String.format("line %d: %s: '%s'", l.number(), e.getMessage(), WalkerOutput.quote(l.text(), 120)));
            }
            if (previous != null && Long.compareUnsigned(previous.address(), row.address()) >= 0) {
                throw new AnswerKeyException(file, String.format("line %d: 0x%x is not above the address of the line before (0x%x); "
                        + "the rows are not in address order", l.number(), row.address(), previous.address()));
            }
            previous = row;
            return row;
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }
    }
}
