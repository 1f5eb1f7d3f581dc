package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A tab-separated answer key file read a row at a time and checked as it goes: its header must be the one
 * {@code clrheap generate} writes, every row must have the columns, and any fault is an {@link AnswerKeyException}
 * naming the file and line (the suite is broken, not the walker).
 */
final class KeyTable implements AutoCloseable {

    /** A row: its line number and its columns. */
    record Row(long line, String[] columns) {
    }

    private final Path file;
    private final int columns;
    private final OutputLines lines;

    /** Opens {@code file} and checks that its first line is {@code header}. */
    KeyTable(Path file, String header) throws AnswerKeyException {
        this.file = file;
        this.columns = header.split("\t").length;
        try {
            this.lines = OutputLines.open(file);
            OutputLines.Line first = lines.next();
            if (first == null || first.tooLong() || !first.text().equals(header)) {
                lines.close();
                throw new AnswerKeyException(file, "line 1: not the header '" + header.replace("\t", "<TAB>") + "'");
            }
        } catch (AnswerKeyException e) {
            throw e;
        } catch (IOException e) {
            throw new AnswerKeyException(file, "cannot be read: " + Comparison.describe(e), e);
        }
    }

    Path file() {
        return file;
    }

    /** The next row, or null at the end. */
    Row next() throws AnswerKeyException {
        OutputLines.Line l;
        try {
            l = lines.next();
        } catch (IOException e) {
            throw new AnswerKeyException(file, "cannot be read: " + Comparison.describe(e), e);
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
        String[] t = l.text().split("\t", -1);
        if (t.length < columns) {
            throw fault(l.number(), "has " + t.length + " column" + (t.length == 1 ? "" : "s") + ", not " + columns, l.text());
        }
        return new Row(l.number(), t);
    }

    /** A column that must be a 0x hex address. */
    long address(Row row, int column, String what) throws AnswerKeyException {
        String text = row.columns()[column];
        try {
            if (!text.startsWith("0x")) {
                throw new NumberFormatException("the " + what + " is not a 0x hex address");
            }
            return WalkerOutput.hex(text.substring(2), what);
        } catch (NumberFormatException e) {
            throw fault(row.line(), e.getMessage(), String.join("\t", row.columns()));
        }
    }

    /** A column that must be a decimal number. */
    long number(Row row, int column, String what) throws AnswerKeyException {
        try {
            return WalkerOutput.number(row.columns()[column], what);
        } catch (NumberFormatException e) {
            throw fault(row.line(), e.getMessage(), String.join("\t", row.columns()));
        }
    }

    AnswerKeyException fault(long line, String what, String text) {
        return new AnswerKeyException(file, String.format("line %d: %s: '%s'", line, what, WalkerOutput.quote(text, 120)));
    }

    @Override
    public void close() throws IOException {
        lines.close();
    }
}
