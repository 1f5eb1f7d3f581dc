package io.clrheap.conformance;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
        WalkerOutput.Stat expected = WalkerOutput.parseStat(answerDir.resolve("dumpheap-stat.txt"));
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
        if (actual.totalObjects() < 0) {
            d.add("no 'Total N objects, M bytes' line");
        } else if (actual.totalObjects() != expected.totalObjects() || actual.totalBytes() != expected.totalBytes()) {
            d.add(String.format("wrong total: %,d objects, %,d bytes expected; %,d objects, %,d bytes reported", expected.totalObjects(),
                    expected.totalBytes(), actual.totalObjects(), actual.totalBytes()));
        }
        return d.result();
    }

    /** The walker's object listing against objects.tsv, both in address order: missing, extra, wrong MethodTable or size. */
    public static Result objects(List<WalkerOutput.Listed> actual, Path answerDir) throws IOException {
        Differences d = new Differences();
        try (BufferedReader key = Files.newBufferedReader(answerDir.resolve("objects.tsv"), StandardCharsets.UTF_8)) {
            key.readLine(); // the header
            String line = key.readLine();
            int i = 0;
            while (line != null || i < actual.size()) {
                long[] x = line == null ? null : row(line);
                WalkerOutput.Listed a = i < actual.size() ? actual.get(i) : null;
                if (a == null || (x != null && Long.compareUnsigned(x[0], a.address()) < 0)) {
                    d.add(String.format("missing object: 0x%x (MethodTable 0x%x, %d bytes) was not reported", x[0], x[1], x[2]));
                    line = key.readLine();
                } else if (x == null || Long.compareUnsigned(a.address(), x[0]) < 0) {
                    d.add(String.format("extra object: 0x%x (MethodTable 0x%x, %d bytes) reported; no object starts there", a.address(), a.mt(), a.size()));
                    i++;
                } else {
                    if (a.mt() != x[1]) {
                        d.add(String.format("wrong MethodTable: 0x%x is 0x%x, reported 0x%x", a.address(), x[1], a.mt()));
                    } else if (a.size() != x[2]) {
                        d.add(String.format("wrong size: 0x%x is %d bytes, reported %d", a.address(), x[2], a.size()));
                    }
                    line = key.readLine();
                    i++;
                }
            }
        }
        return d.result();
    }

    private static long[] row(String line) {
        String[] t = line.split("\t", 4);
        return new long[] {Long.parseUnsignedLong(t[0].substring(2), 16), Long.parseUnsignedLong(t[1].substring(2), 16), Long.parseLong(t[2])};
    }

    private static final class Differences {
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
