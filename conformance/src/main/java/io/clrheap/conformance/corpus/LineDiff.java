package io.clrheap.conformance.corpus;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A short summary of how two versions of a text file differ, for reviewing a corpus update: the lines between their
 * common start and common end that only one of them holds (counted as multisets: cheap, and exact for the usual edits
 * — lines changed, inserted or deleted in one place), and the first difference.
 */
final class LineDiff {

    /** Longest line text kept in a {@link FileDifference}. */
    static final int SHOWN_CHARACTERS = 120;

    private LineDiff() {
    }

    /** How {@code fresh} differs from {@code committed}; empty when their bytes are equal. */
    static Optional<FileDifference> compare(String file, byte[] committed, byte[] fresh) {
        long offset = Arrays.mismatch(committed, fresh);
        if (offset < 0) {
            return Optional.empty();
        }
        List<String> a = lines(committed);
        List<String> b = lines(fresh);
        int prefix = 0;
        while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < a.size() - prefix && suffix < b.size() - prefix && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
            suffix++;
        }
        Map<String, Integer> onlyCommitted = new HashMap<>();
        for (String line : a.subList(prefix, a.size() - suffix)) {
            onlyCommitted.merge(line, 1, Integer::sum);
        }
        int added = 0;
        for (String line : b.subList(prefix, b.size() - suffix)) {
            Integer n = onlyCommitted.get(line);
            if (n == null) {
                added++;
            } else if (n == 1) {
                onlyCommitted.remove(line);
            } else {
                onlyCommitted.put(line, n - 1);
            }
        }
        int removed = onlyCommitted.values().stream().mapToInt(Integer::intValue).sum();
        return Optional.of(new FileDifference(file, Presence.BOTH, removed, added, prefix + 1L, offset, shown(a, prefix), shown(b, prefix)));
    }

    /** A file only one side has: all its lines count as removed (only in the corpus) or added (only in the build). */
    static FileDifference onlyIn(String file, Presence presence, byte[] content) {
        List<String> lines = lines(content);
        int n = lines.size();
        return presence == Presence.ONLY_IN_CORPUS
                ? new FileDifference(file, presence, n, 0, 1, 0, shown(lines, 0), "")
                : new FileDifference(file, presence, 0, n, 1, 0, "", shown(lines, 0));
    }

    /** The file's lines; a final line end does not start another line. */
    private static List<String> lines(byte[] content) {
        String text = new String(content, StandardCharsets.UTF_8);
        if (text.isEmpty()) {
            return List.of();
        }
        List<String> lines = Arrays.asList(text.split("\n", -1));
        return text.endsWith("\n") ? lines.subList(0, lines.size() - 1) : lines;
    }

    private static String shown(List<String> lines, int index) {
        if (index >= lines.size()) {
            return "(end of file)";
        }
        String line = lines.get(index);
        return line.length() <= SHOWN_CHARACTERS ? "'" + line + "'" : "'" + line.substring(0, SHOWN_CHARACTERS) + "...'";
    }
}
