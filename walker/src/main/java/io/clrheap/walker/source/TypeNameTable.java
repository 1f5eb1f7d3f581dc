package io.clrheap.walker.source;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Type names by MethodTable, stored compactly: the MethodTables as one sorted {@code long[]} (unsigned order), the
 * names as one UTF-8 {@code byte[]} with an {@code int} offset each. A {@link String} is made only when a name is
 * asked for. An unmodifiable {@link Map} iterating in ascending (unsigned) MethodTable order.
 *
 * <p>{@link #parse} reads name lines straight from bytes (a mapped file, a note or stream slice of one) in two
 * passes, never holding the text or a line as a string: the first checks each line and keeps the MethodTable and
 * where its name lies, one per MethodTable (a list of objects names a type once per object: the first name is kept);
 * the second copies the kept names into the blob, sized exactly. Memory is the names' bytes plus about 20 bytes per
 * distinct MethodTable while parsing (12 after); a line longer than {@link #MAX_LINE_BYTES} is refused.
 *
 * <p>Long because the two passes, the line syntax checks they share, the fallback hash table for out-of-order input and
 * the {@link Map} view all work on the same packed arrays; apart, each would have to expose them.
 */
public final class TypeNameTable extends AbstractMap<Long, String> {

    /** The longest line accepted, its line feed excluded: far above any type name (a generic type's included). */
    public static final int MAX_LINE_BYTES = 1 << 16;

    private static final TypeNameTable EMPTY = new TypeNameTable(new long[0], new int[] {0}, new byte[0]);

    /** The line forms. */
    public enum Syntax {
        /**
         * A minidump's type-name stream: exactly {@code 0x<hex> <name>} and a line feed per line, nothing stripped,
         * no blank or comment lines; by default a MethodTable named twice is refused.
         */
        STRICT,
        /**
         * The sidecar as files hold it: {@code 0x<hex> <name>} lines, surrounding spaces stripped, blank lines and
         * {@code #} lines skipped, the last line's line feed optional.
         */
        SIDECAR,
        /**
         * A {@code --names} file: {@link #SIDECAR} lines or {@code address size mt type} lines (the runtime heap
         * snapshot's {@code live-objects.txt}); {@code 0X} is accepted as well.
         */
        NAMES_FILE
    }

    /** What is wrong with a line. */
    public enum Problem { MALFORMED, NOT_UTF8, TOO_LONG, NO_LINE_FEED, NAMED_TWICE, TOO_LARGE }

    /** A line {@link #parse} refuses: where it starts (an offset into the bytes parsed), its number and what is wrong. */
    public static final class MalformedLineException extends IllegalArgumentException {
        private final long offset;
        private final long line;
        private final Problem problem;
        private final String found;
        private final long methodTable;

        MalformedLineException(long offset, long line, Problem problem, String found, long methodTable) {
            super(describe(line, problem, found, methodTable));
            this.offset = offset;
            this.line = line;
            this.problem = problem;
            this.found = found;
            this.methodTable = methodTable;
        }

        private static String describe(long line, Problem problem, String found, long methodTable) {
            String what = switch (problem) {
                case MALFORMED -> "expected '0x<MethodTable> <type name>', found '" + found + "'";
                case NOT_UTF8 -> "not UTF-8 text: '" + found + "'";
                case TOO_LONG -> "longer than the limit of " + MAX_LINE_BYTES + " bytes: '" + found + "'";
                case NO_LINE_FEED -> "the last line has no line feed: '" + found + "'";
                case NAMED_TWICE -> String.format("MethodTable 0x%x is named twice", methodTable);
                case TOO_LARGE -> "the names hold more than 2 GiB";
            };
            return "line " + line + ": " + what;
        }

        /** The offset of the line's first byte in the bytes parsed. */
        public long offset() {
            return offset;
        }

        public long line() {
            return line;
        }

        public Problem problem() {
            return problem;
        }

        /** The line, or its first 80 characters, printable. */
        public String found() {
            return found;
        }

        /** For {@link Problem#NAMED_TWICE}: the MethodTable. */
        public long methodTable() {
            return methodTable;
        }
    }

    private final long[] methodTables;
    /** {@code offsets[i]} to {@code offsets[i + 1]}: the name of {@code methodTables[i]} in {@link #names}. */
    private final int[] offsets;
    private final byte[] names;

    private TypeNameTable(long[] methodTables, int[] offsets, byte[] names) {
        this.methodTables = methodTables;
        this.offsets = offsets;
        this.names = names;
    }

    public static TypeNameTable empty() {
        return EMPTY;
    }

    /** The table of {@code names} (itself when it is one already). */
    public static TypeNameTable copyOf(Map<Long, String> names) {
        if (names instanceof TypeNameTable t) {
            return t;
        }
        if (names.isEmpty()) {
            return EMPTY;
        }
        long[] mts = new long[names.size()];
        int i = 0;
        for (Long mt : names.keySet()) {
            mts[i++] = mt;
        }
        sortUnsigned(mts);
        byte[][] encoded = new byte[mts.length][];
        long total = 0;
        for (i = 0; i < mts.length; i++) {
            encoded[i] = names.get(mts[i]).getBytes(StandardCharsets.UTF_8);
            total += encoded[i].length;
        }
        byte[] blob = new byte[Math.toIntExact(total)];
        int[] offsets = new int[mts.length + 1];
        int at = 0;
        for (i = 0; i < mts.length; i++) {
            System.arraycopy(encoded[i], 0, blob, at, encoded[i].length);
            at += encoded[i].length;
            offsets[i + 1] = at;
        }
        return new TypeNameTable(mts, offsets, blob);
    }

    private static void sortUnsigned(long[] values) {
        for (int i = 0; i < values.length; i++) {
            values[i] ^= Long.MIN_VALUE;
        }
        Arrays.sort(values);
        for (int i = 0; i < values.length; i++) {
            values[i] ^= Long.MIN_VALUE;
        }
    }

    /**
     * Parses name lines from {@code text} (read, never copied whole).
     *
     * @throws MalformedLineException for the first line {@code syntax} refuses, with its offset and number
     */
    public static TypeNameTable parse(MemorySegment text, Syntax syntax) {
        return parse(text, syntax, syntax == Syntax.STRICT);
    }

    /**
     * As {@link #parse(MemorySegment, Syntax)}; {@code namedOnce} refuses a MethodTable named on two lines (else the
     * first name is kept).
     */
    public static TypeNameTable parse(MemorySegment text, Syntax syntax, boolean namedOnce) {
        return new Parser(text, syntax, namedOnce).parse();
    }

    /** The name of {@code methodTable}, or null. */
    public String name(long methodTable) {
        int i = indexOf(methodTable);
        return i < 0 ? null : nameAt(i);
    }

    private int indexOf(long methodTable) {
        int lo = 0;
        int hi = methodTables.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(methodTables[mid], methodTable);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    private String nameAt(int i) {
        return new String(names, offsets[i], offsets[i + 1] - offsets[i], StandardCharsets.UTF_8);
    }

    @Override
    public int size() {
        return methodTables.length;
    }

    @Override
    public String get(Object key) {
        return key instanceof Long mt ? name(mt) : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return key instanceof Long mt && indexOf(mt) >= 0;
    }

    @Override
    public Set<Entry<Long, String>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<Long, String>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < methodTables.length;
                    }

                    @Override
                    public Entry<Long, String> next() {
                        if (next >= methodTables.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(methodTables[i], nameAt(i));
                    }
                };
            }

            @Override
            public int size() {
                return methodTables.length;
            }
        };
    }

    /** The two passes of {@link #parse}. */
    private static final class Parser {
        private final MemorySegment text;
        private final Syntax syntax;
        private final boolean namedOnce;
        private final long size;
        private long[] mts = new long[64];
        private long[] nameAt = new long[64];
        private int[] nameLength = new int[64];
        private int count;
        private boolean ascending = true;
        /** Once the MethodTables come out of order: open addressing, entry index + 1 (0 = empty). */
        private int[] hash;
        private long nameBytes;

        Parser(MemorySegment text, Syntax syntax, boolean namedOnce) {
            this.text = text;
            this.syntax = syntax;
            this.namedOnce = namedOnce;
            this.size = text.byteSize();
        }

        private int at(long i) {
            return text.get(ValueLayout.JAVA_BYTE, i) & 0xff;
        }

        TypeNameTable parse() {
            long pos = 0;
            long line = 0;
            while (pos < size) {
                line++;
                long end = pos;
                long cap = Math.min(size, pos + MAX_LINE_BYTES + 1);
                while (end < cap && at(end) != '\n') {
                    end++;
                }
                if (end == cap && cap < size) {
                    throw error(pos, line, Problem.TOO_LONG, pos, end, 0);
                }
                if (end == size && syntax == Syntax.STRICT) {
                    throw error(pos, line, Problem.NO_LINE_FEED, pos, end, 0);
                }
                line(pos, end, line);
                pos = end + 1;
            }
            return build();
        }

        private static boolean space(int b) {
            return b == ' ' || b == '\t' || b == '\r' || b == '\f' || b == 0x0b;
        }

        private void line(long start, long end, long line) {
            if (syntax == Syntax.STRICT) {
                long space = start;
                while (space < end && at(space) != ' ') {
                    space++;
                }
                if (!isHexToken(start, space) || space + 1 >= end) {
                    throw error(start, line, Problem.MALFORMED, start, end, 0);
                }
                add(hex(start, space), space + 1, end, start, line);
                return;
            }
            long a = start;
            long b = end;
            while (a < b && space(at(a))) {
                a++;
            }
            while (b > a && space(at(b - 1))) {
                b--;
            }
            if (a == b || at(a) == '#') {
                return;
            }
            long[] tokens = new long[8]; // start, end of up to four tokens
            int n = 0;
            long p = a;
            while (p < b && n < 4) {
                long t = p;
                while (p < b && !space(at(p))) {
                    p++;
                }
                tokens[2 * n] = t;
                tokens[2 * n + 1] = p;
                n++;
                while (p < b && space(at(p))) {
                    p++;
                }
            }
            if (n < 2 || !isHexToken(tokens[0], tokens[1])) {
                throw error(start, line, Problem.MALFORMED, a, b, 0);
            }
            if (syntax == Syntax.NAMES_FILE && n == 4 && isHexToken(tokens[4], tokens[5])) {
                add(hex(tokens[4], tokens[5]), tokens[6], b, start, line);
            } else {
                add(hex(tokens[0], tokens[1]), tokens[2], b, start, line);
            }
        }

        /** {@code 0x} (or {@code 0X} in a names file) and 1 to 16 hex digits. */
        private boolean isHexToken(long from, long to) {
            if (to - from < 3 || to - from > 18 || at(from) != '0'
                    || !(at(from + 1) == 'x' || syntax == Syntax.NAMES_FILE && at(from + 1) == 'X')) {
                return false;
            }
            for (long i = from + 2; i < to; i++) {
                if (Character.digit(at(i), 16) < 0) {
                    return false;
                }
            }
            return true;
        }

        /** The value of a token {@link #isHexToken} accepts; -1 (also a value) otherwise. */
        private long hex(long from, long to) {
            if (!isHexToken(from, to)) {
                return -1;
            }
            long v = 0;
            for (long i = from + 2; i < to; i++) {
                v = v << 4 | Character.digit(at(i), 16);
            }
            return v;
        }

        private void add(long mt, long nameStart, long nameEnd, long lineStart, long line) {
            if (!utf8(nameStart, nameEnd)) {
                throw error(lineStart, line, Problem.NOT_UTF8, lineStart, nameEnd, 0);
            }
            int existing = find(mt);
            if (existing >= 0) {
                if (namedOnce) {
                    throw error(lineStart, line, Problem.NAMED_TWICE, lineStart, nameEnd, mt);
                }
                return; // the first name is kept
            }
            if (count == mts.length) {
                int grown = count + (count >> 1);
                mts = Arrays.copyOf(mts, grown);
                nameAt = Arrays.copyOf(nameAt, grown);
                nameLength = Arrays.copyOf(nameLength, grown);
            }
            if (count > 0 && ascending && Long.compareUnsigned(mt, mts[count - 1]) < 0) {
                ascending = false;
                rehash(Math.max(64, Integer.highestOneBit(count) * 4));
            }
            mts[count] = mt;
            nameAt[count] = nameStart;
            nameLength[count] = (int) (nameEnd - nameStart);
            nameBytes += nameEnd - nameStart;
            if (nameBytes > Integer.MAX_VALUE - 16) {
                throw error(lineStart, line, Problem.TOO_LARGE, lineStart, nameEnd, 0);
            }
            count++;
            if (hash != null) {
                insert(count - 1);
                if (count * 2L > hash.length) {
                    rehash(hash.length * 2);
                }
            }
        }

        /** The index of {@code mt} among those kept, or -1. */
        private int find(long mt) {
            if (hash == null) {
                return count > 0 && mts[count - 1] == mt ? count - 1 : -1; // ascending: a repeat is the last one
            }
            int mask = hash.length - 1;
            for (int slot = mix(mt) & mask; hash[slot] != 0; slot = (slot + 1) & mask) {
                if (mts[hash[slot] - 1] == mt) {
                    return hash[slot] - 1;
                }
            }
            return -1;
        }

        private void rehash(int capacity) {
            hash = new int[capacity];
            for (int i = 0; i < count; i++) {
                insert(i);
            }
        }

        private void insert(int index) {
            int mask = hash.length - 1;
            int slot = mix(mts[index]) & mask;
            while (hash[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            hash[slot] = index + 1;
        }

        private static int mix(long v) {
            long h = v * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32));
        }

        /** Well-formed UTF-8 (no overlong forms, surrogates or values above U+10FFFF). */
        private boolean utf8(long from, long to) {
            long i = from;
            while (i < to) {
                int b = at(i);
                if (b < 0x80) {
                    i++;
                    continue;
                }
                int n;
                int min;
                int max = 0xbf;
                if (b >= 0xc2 && b <= 0xdf) {
                    n = 1;
                    min = 0x80;
                } else if (b >= 0xe0 && b <= 0xef) {
                    n = 2;
                    min = b == 0xe0 ? 0xa0 : 0x80;
                    max = b == 0xed ? 0x9f : 0xbf;
                } else if (b >= 0xf0 && b <= 0xf4) {
                    n = 3;
                    min = b == 0xf0 ? 0x90 : 0x80;
                    max = b == 0xf4 ? 0x8f : 0xbf;
                } else {
                    return false;
                }
                if (to - i <= n) {
                    return false;
                }
                int c = at(i + 1);
                if (c < min || c > max) {
                    return false;
                }
                for (int k = 2; k <= n; k++) {
                    c = at(i + k);
                    if (c < 0x80 || c > 0xbf) {
                        return false;
                    }
                }
                i += n + 1;
            }
            return true;
        }

        private TypeNameTable build() {
            if (count == 0) {
                return EMPTY;
            }
            hash = null;
            if (!ascending) {
                sort();
            }
            long[] sorted = mts.length == count ? mts : Arrays.copyOf(mts, count);
            mts = null;
            byte[] blob = new byte[(int) nameBytes];
            int[] offsets = new int[count + 1];
            int o = 0;
            for (int i = 0; i < count; i++) {
                MemorySegment.copy(text, ValueLayout.JAVA_BYTE, nameAt[i], blob, o, nameLength[i]);
                o += nameLength[i];
                offsets[i + 1] = o;
            }
            return new TypeNameTable(sorted, offsets, blob);
        }

        /** Heap sort of the parallel arrays by unsigned MethodTable: in place, no recursion. */
        private void sort() {
            for (int i = count / 2 - 1; i >= 0; i--) {
                siftDown(i, count);
            }
            for (int end = count - 1; end > 0; end--) {
                swap(0, end);
                siftDown(0, end);
            }
        }

        private void siftDown(int i, int n) {
            while (true) {
                int child = 2 * i + 1;
                if (child >= n) {
                    return;
                }
                if (child + 1 < n && Long.compareUnsigned(mts[child + 1], mts[child]) > 0) {
                    child++;
                }
                if (Long.compareUnsigned(mts[i], mts[child]) >= 0) {
                    return;
                }
                swap(i, child);
                i = child;
            }
        }

        private void swap(int i, int j) {
            long m = mts[i];
            mts[i] = mts[j];
            mts[j] = m;
            long a = nameAt[i];
            nameAt[i] = nameAt[j];
            nameAt[j] = a;
            int l = nameLength[i];
            nameLength[i] = nameLength[j];
            nameLength[j] = l;
        }

        private MalformedLineException error(long offset, long line, Problem problem, long from, long to, long mt) {
            long shown = Math.min(to, from + 80);
            byte[] bytes = new byte[(int) (shown - from)];
            MemorySegment.copy(text, ValueLayout.JAVA_BYTE, from, bytes, 0, bytes.length);
            StringBuilder s = new StringBuilder();
            new String(bytes, StandardCharsets.UTF_8).codePoints()
                    .forEach(c -> s.append(Character.isISOControl(c) ? String.format("\\x%02x", c) : Character.toString(c)));
            if (shown < to) {
                s.append('…');
            }
            return new MalformedLineException(offset, line, problem, s.toString(), mt);
        }
    }
}
