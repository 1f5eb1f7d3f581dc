package io.clrheap.conformance.corpus;

import java.util.HexFormat;
import java.util.Locale;

/**
 * One line of a golden corpus's {@code corpus.tsv}: a fixture's file and what it holds. A Windows fixture's line is as a
 * Linux one's, its path naming its folder and file ({@code net8-windows-server/default.dmp.xz}), so the format of the
 * lines written before there were Windows fixtures is unchanged.
 *
 * @param path    the file's path in the corpus, {@code net8-server/default.clrheap.tar.xz}, {@code net8-windows-server/default.dmp.xz}
 * @param runtime the runtime's short name, {@code net8}
 * @param gc      the GC flavour's id, {@code server}
 * @param heaps   the GC heaps
 * @param seed    the scenario's seed
 * @param objects the heap's objects, free ones included
 * @param bytes   their unaligned sizes, summed
 * @param sha256  the file's SHA-256, lowercase hex
 */
public record IndexRow(String path, String runtime, String gc, int heaps, long seed, long objects, long bytes, String sha256)
        implements Comparable<IndexRow> {

    /** The header line's columns. */
    public static final String HEADER = "path\truntime\tgc\theaps\tseed\tobjects\tbytes\tsha256";

    public IndexRow {
        for (String text : new String[] {path, runtime, gc}) {
            if (text == null || text.isEmpty() || text.chars().anyMatch(c -> c == '\t' || c == '\n' || Character.isISOControl(c))) {
                throw new IllegalArgumentException("a corpus.tsv field is non-empty text without tabs or control characters, not '" + text + "'");
            }
        }
        if (sha256 == null || sha256.length() != 64 || !sha256.chars().allMatch(c -> HexFormat.isHexDigit(c) && !Character.isUpperCase(c))) {
            throw new IllegalArgumentException("a SHA-256 is 64 lowercase hex digits, not '" + sha256 + "'");
        }
    }

    /** The row's line, without its line end. */
    public String line() {
        return String.format(Locale.ROOT, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s", path, runtime, gc, heaps, seed, objects, bytes, sha256);
    }

    /**
     * The row a line holds.
     *
     * @throws IllegalArgumentException when the line is not eight tab-separated fields of the right kinds (saying which)
     */
    public static IndexRow parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 8) {
            throw new IllegalArgumentException("a corpus.tsv line has 8 tab-separated fields, not " + f.length + ": '" + line + "'");
        }
        try {
            return new IndexRow(f[0], f[1], f[2], Integer.parseInt(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]), f[7]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a corpus.tsv line's heaps, seed, objects and bytes are decimal numbers: '" + line + "'", e);
        }
    }

    /** Rows sort by path. */
    @Override
    public int compareTo(IndexRow other) {
        return path.compareTo(other.path);
    }
}
