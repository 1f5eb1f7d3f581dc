package io.clrheap.conformance.corpus;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A golden corpus's {@code corpus.tsv}: the header, then one {@link IndexRow} a fixture, sorted by path; UTF-8 with
 * {@code \n} line ends. It lets a reviewer see at a glance what the corpus holds and what an update changed.
 */
public final class CorpusIndex {

    /** The file's name in the corpus folder. */
    public static final String NAME = "corpus.tsv";

    private CorpusIndex() {
    }

    /** The file's text for {@code rows}, sorted by path. */
    public static String format(List<IndexRow> rows) {
        StringBuilder s = new StringBuilder(IndexRow.HEADER).append('\n');
        rows.stream().sorted().forEach(r -> s.append(r.line()).append('\n'));
        return s.toString();
    }

    /**
     * The rows of {@code file}, in file order.
     *
     * @throws IOException when it cannot be read, or its header or a line is wrong (the message names the file and line)
     */
    public static List<IndexRow> read(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
    }

    /**
     * The rows of an index's {@code lines}, read from {@code source} (named in messages).
     *
     * @throws IOException when its header or a line is wrong (the message names the source and line)
     */
    static List<IndexRow> parse(List<String> lines, String source) throws IOException {
        if (lines.isEmpty() || !lines.getFirst().equals(IndexRow.HEADER)) {
            throw new IOException(source + ": line 1 is not the header '" + IndexRow.HEADER.replace("\t", "\\t") + "'");
        }
        List<IndexRow> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            try {
                rows.add(IndexRow.parse(lines.get(i)));
            } catch (IllegalArgumentException e) {
                throw new IOException(source + ": line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return rows;
    }
}
