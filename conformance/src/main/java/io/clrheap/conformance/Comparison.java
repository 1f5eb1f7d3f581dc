package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Compares what a walker printed with a fixture's answer key; keeps the first differences, counts them all. */
public final class Comparison {

    /** Differences shown per fixture. */
    static final int SHOWN = 10;

    /** The outcome: how many differences, the first ones, one line each. */
    public record Result(long differences, List<String> first) {
        public boolean passed() {
            return differences == 0;
        }
    }

    private Comparison() {
    }

    /** The walker's {@code dumpheap -stat} against the key's: per type count and bytes, and the Total line. */
    public static Result stat(WalkerOutput.Stat actual, Path answerDir) throws IOException {
        WalkerOutput.Stat expected = expectedStat(answerDir.resolve("dumpheap-stat.txt"));
        Differences d = new Differences();
        actual.problems().forEach(d::add);
        for (Map.Entry<Long, WalkerOutput.StatRow> e : expected.rows().entrySet()) {
            WalkerOutput.StatRow a = actual.rows().get(e.getKey());
            WalkerOutput.StatRow x = e.getValue();
            if (a == null) {
                d.add(String.format("missing type: %s (MethodTable 0x%x): %,d objects, %,d bytes expected, none reported", x.name(), e.getKey(), x.count(), x.bytes()));
            } else if (a.count() != x.count() || a.bytes() != x.bytes()) {
                d.add(String.format("wrong count: %s (MethodTable 0x%x): %,d objects, %,d bytes expected; %,d objects, %,d bytes reported",
                        x.name(), e.getKey(), x.count(), x.bytes(), a.count(), a.bytes()));
            }
        }
        for (Map.Entry<Long, WalkerOutput.StatRow> e : actual.rows().entrySet()) {
            if (!expected.rows().containsKey(e.getKey())) {
                d.add(String.format("extra type: MethodTable 0x%x (%s) reported with %,d objects, %,d bytes; the heap has none", e.getKey(),
                        e.getValue().name(), e.getValue().count(), e.getValue().bytes()));
            }
        }
        if (actual.totalObjects() == -1) {
            d.add("no 'Total N objects, M bytes' line");
        } else if (actual.totalObjects() < 0) {
            // the Total line did not parse: a problem already says so
        } else if (actual.totalObjects() != expected.totalObjects() || actual.totalBytes() != expected.totalBytes()) {
            d.add(String.format("wrong total: %,d objects, %,d bytes expected; %,d objects, %,d bytes reported", expected.totalObjects(),
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
        return objects(actual, List.of(), answerDir);
    }

    private static Result objects(List<WalkerOutput.Listed> actual, List<String> problems, Path answerDir) throws IOException {
        Differences d = new Differences();
        problems.forEach(d::add);
        try (KeyRows key = new KeyRows(answerDir.resolve("objects.tsv"))) {
            long[] x = key.next();
            int i = 0;
            while (x != null || i < actual.size()) {
                WalkerOutput.Listed a = i < actual.size() ? actual.get(i) : null;
                if (a == null || (x != null && Long.compareUnsigned(x[0], a.address()) < 0)) {
                    d.add(String.format("missing object: 0x%x (MethodTable 0x%x, %d bytes) was not reported", x[0], x[1], x[2]));
                    x = key.next();
                } else if (x == null || Long.compareUnsigned(a.address(), x[0]) < 0) {
                    d.add(String.format("extra object: 0x%x (MethodTable 0x%x, %d bytes) reported; no object starts there", a.address(), a.mt(), a.size()));
                    i++;
                } else {
                    if (a.mt() != x[1]) {
                        d.add(String.format("wrong MethodTable: 0x%x is 0x%x, reported 0x%x", a.address(), x[1], a.mt()));
                    } else if (a.size() != x[2]) {
                        d.add(String.format("wrong size: 0x%x is %d bytes, reported %d", a.address(), x[2], a.size()));
                    }
                    x = key.next();
                    i++;
                }
            }
        }
        return d.result();
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
        private long[] previous;

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

        /** The next row as {address, mt, size}, or null at the end. */
        long[] next() throws AnswerKeyException {
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
            long[] row;
            try {
                String[] t = l.text().split("\t", 4);
                if (t.length < 3 || !t[0].startsWith("0x") || !t[1].startsWith("0x")) {
                    throw new NumberFormatException("not 'address<TAB>mt<TAB>size...'");
                }
                row = new long[] {WalkerOutput.hex(t[0].substring(2), "address"), WalkerOutput.hex(t[1].substring(2), "MethodTable"),
                    WalkerOutput.number(t[2], "size")};
            } catch (NumberFormatException e) {
                throw new AnswerKeyException(file, String.format("line %d: %s: '%s'", l.number(), e.getMessage(), WalkerOutput.quote(l.text(), 120)));
            }
            if (previous != null && Long.compareUnsigned(previous[0], row[0]) >= 0) {
                throw new AnswerKeyException(file, String.format("line %d: 0x%x is not above the address of the line before (0x%x); "
                        + "the rows are not in address order", l.number(), row[0], previous[0]));
            }
            previous = row;
            return row;
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }
    }

    static final class Differences {
        private long count;
        private final List<String> first = new ArrayList<>();

        void add(String what) {
            count++;
            if (first.size() < SHOWN) {
                first.add(what);
            }
        }

        Result result() {
            return new Result(count, List.copyOf(first));
        }
    }
}
