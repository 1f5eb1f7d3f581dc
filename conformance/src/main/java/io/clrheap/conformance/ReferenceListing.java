package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a walker printed for {@code --expect refs}: one line per object that holds references,
 * {@code 0xSRC: 0xTARGET 0xTARGET …} in field order (what {@code clrheap walk --refs} prints, the format of a real golden
 * folder's {@code refs.txt}). Lines starting with {@code #}, blank lines and lines that do not start with {@code 0x}
 * (banners, warnings) are ignored; a line that starts with a hex address but is not {@code 0xSRC: 0xTARGET …} is a
 * problem naming the line. An object listed on a second line is a problem too; its first line is compared.
 *
 * <p>The lists are kept packed (the sources and the targets as longs, not an object apiece) and at most
 * {@link WalkerOutput#MAX_ROWS} targets are kept, so a walker that prints without end cannot exhaust the Java heap.
 * Objects are sorted by address; each object's targets stay in the walker's order, which is what is compared.
 */
public final class ReferenceListing {

    private static final Pattern LINE = Pattern.compile("^\\s*0x([0-9a-fA-F]+)\\s*:(.*)$");
    private static final Pattern TARGET = Pattern.compile("0x([0-9a-fA-F]+)");
    /** A line that starts like an object's references: a hex address. */
    private static final Pattern START = Pattern.compile("^\\s*0x[0-9a-fA-F]");

    private final long[] sources;
    /** Where each object's targets start in {@link #targets}; one more entry than objects. */
    private final int[] firsts;
    private final long[] targets;
    private final int size;
    private final ParseProblems problems;
    private final List<String> notes;

    private ReferenceListing(ParseProblems problems, List<String> notes, Builder b) {
        this.sources = b.sources;
        this.firsts = b.firsts;
        this.targets = b.targets;
        this.size = b.size;
        this.problems = problems;
        this.notes = notes;
    }

    /** Reads a walker's output. */
    public static ReferenceListing read(Path output) throws IOException {
        Builder b = new Builder();
        WalkerOutput.Problems problems = new WalkerOutput.Problems();
        try (OutputLines in = OutputLines.open(output)) {
            OutputLines.Line l;
            long[] line = new long[64];
            while ((l = in.nextFitting(problems)) != null) {
                String text = l.text();
                if (text.isBlank() || text.stripLeading().startsWith("#")) {
                    continue;
                }
                Matcher m = LINE.matcher(text);
                if (!m.matches()) {
                    if (START.matcher(text).find()) {
                        problems.add(l, "starts like an object's references '0xSRC: 0xTARGET 0xTARGET ...' but has no ':' after the address");
                    }
                    continue;
                }
                try {
                    long source = WalkerOutput.hex(m.group(1), "object address");
                    String[] words = m.group(2).strip().split("\\s+");
                    int n = 0;
                    for (String w : words) {
                        if (w.isEmpty()) {
                            continue;
                        }
                        Matcher t = TARGET.matcher(w);
                        if (!t.matches()) {
                            throw new NumberFormatException("the target '" + WalkerOutput.quote(w, 40) + "' is not a 0x hex address");
                        }
                        if (n == line.length) {
                            line = Arrays.copyOf(line, 2 * n);
                        }
                        line[n++] = WalkerOutput.hex(t.group(1), "target");
                    }
                    if (n == 0) {
                        continue; // an object with no references: the same as not listed
                    }
                    if ((long) b.targetCount() + n > WalkerOutput.MAX_ROWS) {
                        problems.add(l, String.format(Locale.ROOT, "more than %,d references listed; the rest was not read", WalkerOutput.MAX_ROWS));
                        break;
                    }
                    b.add(source, line, n);
                } catch (NumberFormatException e) {
                    problems.add(l, e.getMessage());
                }
            }
            b.sort();
            for (long twice : b.dropRepeated()) {
                problems.add(String.format(Locale.ROOT, "0x%x is listed on more than one line; its first line is compared", twice));
            }
            return new ReferenceListing(problems.list(), in.notes(), b);
        }
    }

    /** How many objects are listed. */
    public int size() {
        return size;
    }

    /** The {@code i}th object's address, in address order. */
    public long source(int i) {
        return sources[i];
    }

    /** The {@code i}th object's targets, in the walker's order. */
    public long[] targets(int i) {
        return Arrays.copyOfRange(targets, firsts[i], firsts[i + 1]);
    }

    /** The lines that did not parse. */
    public ParseProblems problems() {
        return problems;
    }

    /** Where the output was not UTF-8. */
    public List<String> notes() {
        return notes;
    }

    /** The lists as they are read: appended in the walker's order, then sorted by source. */
    private static final class Builder {
        long[] sources = new long[1024];
        int[] firsts = new int[1025];
        long[] targets = new long[4096];
        int size;

        int targetCount() {
            return firsts[size];
        }

        void add(long source, long[] line, int n) {
            if (size + 1 == sources.length) {
                sources = Arrays.copyOf(sources, 2 * sources.length);
                firsts = Arrays.copyOf(firsts, 2 * firsts.length);
            }
            int first = firsts[size];
            if (first + n > targets.length) {
                targets = Arrays.copyOf(targets, Math.max(first + n, 2 * targets.length));
            }
            System.arraycopy(line, 0, targets, first, n);
            sources[size] = source;
            firsts[size + 1] = first + n;
            size++;
        }

        /** Sorts by unsigned source, stably (a repeated source keeps its first line first); in order already costs one pass. */
        void sort() {
            boolean sorted = true;
            for (int i = 1; i < size && sorted; i++) {
                sorted = Long.compareUnsigned(sources[i - 1], sources[i]) <= 0;
            }
            if (sorted) {
                return;
            }
            Integer[] order = new Integer[size];
            for (int i = 0; i < size; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, c) -> Long.compareUnsigned(sources[a], sources[c]));
            long[] s = new long[sources.length];
            int[] f = new int[firsts.length];
            long[] t = new long[firsts[size]];
            for (int i = 0; i < size; i++) {
                int from = order[i];
                int n = firsts[from + 1] - firsts[from];
                s[i] = sources[from];
                System.arraycopy(targets, firsts[from], t, f[i], n);
                f[i + 1] = f[i] + n;
            }
            sources = s;
            firsts = f;
            targets = t;
        }

        /** Keeps the first line of a source listed twice (sorted already); returns the sources that were. */
        List<Long> dropRepeated() {
            List<Long> repeated = new java.util.ArrayList<>();
            int kept = 0;
            for (int i = 0; i < size; i++) {
                if (kept > 0 && sources[kept - 1] == sources[i]) {
                    if (repeated.isEmpty() || repeated.getLast() != sources[i]) {
                        repeated.add(sources[i]);
                    }
                    continue;
                }
                int n = firsts[i + 1] - firsts[i];
                int at = firsts[kept];
                System.arraycopy(targets, firsts[i], targets, at, n);
                sources[kept] = sources[i];
                firsts[kept + 1] = at + n;
                kept++;
            }
            size = kept;
            return repeated;
        }
    }
}
