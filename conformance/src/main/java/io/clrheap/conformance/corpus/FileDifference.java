package io.clrheap.conformance.corpus;

import java.util.Locale;

/**
 * How one expected file of a fixture (e.g. {@code eeheap.txt}) differs between the corpus and a fresh build: a short
 * line diff summary — the lines only in one or the other between their common start and end — and the first
 * difference, by line and by byte offset.
 *
 * @param file          the file's name in {@code NAME.expected/}
 * @param presence      where it is; when not in both, the counts are the lines of the one that exists
 * @param removed       lines of the committed file that the fresh one does not have
 * @param added         lines of the fresh file that the committed one does not have
 * @param firstLine     the first line (from 1) at which they differ
 * @param firstOffset   the first byte offset at which they differ
 * @param committedLine the committed file's line {@code firstLine}, quoted and shortened when long; {@code (end of file)} past
 *                      its end, empty when the corpus does not have the file
 * @param freshLine     the fresh file's line {@code firstLine}, quoted and shortened when long; {@code (end of file)} past its
 *                      end, empty when the build does not write the file
 */
public record FileDifference(String file, Presence presence, int removed, int added, long firstLine, long firstOffset, String committedLine,
                             String freshLine) {

    /** One line: {@code eeheap.txt: 2 lines removed, 3 added, first at line 7}. */
    public String describe() {
        return switch (presence) {
            case ONLY_IN_BUILD -> file + ": missing from the corpus";
            case ONLY_IN_CORPUS -> file + ": in the corpus, no longer written";
            case BOTH -> removed == 0 && added == 0
                    ? String.format(Locale.ROOT, "%s: the same lines, other bytes from byte %,d (line ends)", file, firstOffset)
                    : String.format(Locale.ROOT, "%s: %s removed, %,d added, first at line %,d", file, lines(removed), added, firstLine);
        };
    }

    /** {@link #describe()} and, for a changed file, the first differing line of each side and its byte offset. */
    public String detail() {
        if (presence != Presence.BOTH) {
            return describe();
        }
        return String.format(Locale.ROOT, "%s (byte %,d)%n  corpus: %s%n  fresh:  %s", describe(), firstOffset, committedLine, freshLine);
    }

    private static String lines(int n) {
        return String.format(Locale.ROOT, "%,d line%s", n, n == 1 ? "" : "s");
    }
}
