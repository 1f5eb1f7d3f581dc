package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A report that walker and answer key print as text — SOS's {@code eeheap -gc} and {@code gchandles} (docs/reports.md) —
 * compared line by line. Blank lines are skipped and runs of blanks count as one, so a walker with its own column
 * widths passes; every word and number must be the key's. Both files are read a line at a time, each line capped
 * ({@link OutputLines}), so a hostile output costs no more memory than one line.
 */
final class ReportComparison {

    private ReportComparison() {
    }

    static Comparison.Result lines(Path output, Path keyFile) throws IOException, AnswerKeyException {
        Differences d = new Differences();
        WalkerOutput.Problems problems = new WalkerOutput.Problems();
        try (OutputLines actual = OutputLines.open(output); OutputLines expected = openKey(keyFile)) {
            while (true) {
                OutputLines.Line x = nextWords(expected, keyFile);
                OutputLines.Line a = nextWordsOfWalker(actual, problems);
                if (x == null && a == null) {
                    break;
                }
                if (x == null) {
                    d.add(DifferenceKind.EXTRA_LINE, String.format(Locale.ROOT, "output line %d is more than the key holds: '%s'", a.number(), WalkerOutput.quote(a.text(), 160)));
                } else if (a == null) {
                    d.add(DifferenceKind.MISSING_LINE, String.format(Locale.ROOT, "output ends before the key's line %d: '%s'", x.number(), WalkerOutput.quote(x.text(), 160)));
                } else if (!words(x.text()).equals(words(a.text()))) {
                    d.add(DifferenceKind.WRONG_LINE, String.format(Locale.ROOT, "output line %d: '%s'; the key's line %d: '%s'", a.number(), WalkerOutput.quote(a.text(), 160),
                            x.number(), WalkerOutput.quote(x.text(), 160)));
                }
            }
            actual.notes().forEach(problems::add);
        }
        d.addProblems(problems.list());
        return d.result();
    }

    private static OutputLines openKey(Path keyFile) throws AnswerKeyException {
        try {
            return OutputLines.open(keyFile);
        } catch (IOException e) {
            throw new AnswerKeyException(keyFile, "cannot be read: " + e.getMessage(), e);
        }
    }

    /** The key's next line that is not blank, or null at its end. */
    private static OutputLines.Line nextWords(OutputLines key, Path keyFile) throws AnswerKeyException {
        try {
            OutputLines.Line l;
            while ((l = key.next()) != null) {
                if (l.tooLong()) {
                    throw new AnswerKeyException(keyFile, l.tooLongProblem());
                }
                if (!l.text().isBlank()) {
                    return l;
                }
            }
            return null;
        } catch (IOException e) {
            throw new AnswerKeyException(keyFile, "cannot be read: " + e.getMessage(), e);
        }
    }

    /** The walker's next line that fits and is not blank, or null at its end. */
    private static OutputLines.Line nextWordsOfWalker(OutputLines output, WalkerOutput.Problems problems) throws IOException {
        OutputLines.Line l;
        while ((l = output.nextFitting(problems)) != null) {
            if (!l.text().isBlank()) {
                return l;
            }
        }
        return null;
    }

    private static String words(String line) {
        return line.strip().replaceAll("\\s+", " ");
    }
}
