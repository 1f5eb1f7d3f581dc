package io.clrheap.conformance;

import io.clrheap.walker.source.PendingFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Conformance reports: JUnit XML (what CI systems read) and one self-contained HTML page. */
public final class Reports {

    private Reports() {
    }

    /** Writes {@code file} as JUnit XML or HTML, by its extension ({@code .xml} or {@code .html}). */
    public static void write(Path file, String walker, List<FixtureResult> results) throws IOException {
        check(file);
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        String report = name.endsWith(".xml") ? junit(walker, results) : html(walker, results);
        // under a hidden temporary name until complete: a CI system never reads half a report
        PendingFile.write(file, partial -> Files.writeString(partial, report, StandardCharsets.UTF_8));
    }

    /** Refuses a report file that is neither {@code .xml} nor {@code .html}, before anything runs. */
    public static void check(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!name.endsWith(".xml") && !name.endsWith(".html") && !name.endsWith(".htm")) {
            throw new IllegalArgumentException("--report " + file + ": a report is a .xml (JUnit) or .html file");
        }
    }

    static String junit(String walker, List<FixtureResult> results) {
        long failures = results.stream().filter(r -> r.status() == FixtureResult.Status.FAILED).count();
        long errors = results.stream().filter(FixtureResult::broken).count();
        double total = results.stream().mapToDouble(FixtureResult::seconds).sum();
        StringBuilder s = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append(String.format(Locale.ROOT, "<testsuite name=\"clrheap conformance: %s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">%n",
                xml(walker), results.size(), failures, errors, total));
        for (FixtureResult r : results) {
            s.append(String.format(Locale.ROOT, "  <testcase classname=\"clrheap.conformance\" name=\"%s\" time=\"%.3f\">%n", xml(r.fixture().name()), r.seconds()));
            if (!r.passed()) {
                String element = r.broken() ? "error" : "failure";
                s.append("    <").append(element).append(" message=\"").append(xml(r.verdict())).append("\">").append(xml(r.fixture().about())).append('\n');
                r.details().forEach(d -> s.append(xml(d)).append('\n'));
                s.append("</").append(element).append(">\n");
            }
            if (!r.notes().isEmpty()) {
                s.append("    <system-out>");
                r.notes().forEach(n -> s.append(xml(n)).append('\n'));
                s.append("</system-out>\n");
            }
            s.append("  </testcase>\n");
        }
        return s.append("</testsuite>\n").toString();
    }

    static String html(String walker, List<FixtureResult> results) {
        long passed = results.stream().filter(FixtureResult::passed).count();
        StringBuilder s = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>clrheap conformance</title>\n");
        s.append("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;")
                .append("vertical-align:top;text-align:left}.pass{color:#070}.fail{color:#b00}.broken{color:#950}pre{margin:0;white-space:pre-wrap}</style></head><body>\n");
        s.append("<h1>clrheap conformance</h1>\n<p>Walker: <code>").append(xml(walker)).append("</code> — ")
                .append(passed).append(" of ").append(results.size()).append(" fixtures passed.</p>\n");
        long broken = results.stream().filter(FixtureResult::broken).count();
        if (broken > 0) {
            s.append("<p class=\"broken\">").append(broken).append(" fixture").append(broken == 1 ? "" : "s")
                    .append(" of the suite cannot be read (not the walker's fault).</p>\n");
        }
        kindsTable(s, results);
        s.append("<table><tr><th>fixture</th><th>result</th><th>what it catches</th><th>differences, the first of each kind</th><th>notes</th></tr>\n");
        for (FixtureResult r : results) {
            s.append("<tr><td>").append(xml(r.fixture().name())).append("</td><td class=\"").append(r.passed() ? "pass" : r.broken() ? "broken" : "fail").append("\">")
                    .append(xml(r.verdict())).append("</td><td>").append(xml(r.fixture().about())).append("</td><td><pre>")
                    .append(xml(String.join("\n", r.details()))).append("</pre></td><td><pre>")
                    .append(xml(String.join("\n", r.notes()))).append("</pre></td></tr>\n");
        }
        return s.append("</table>\n</body></html>\n").toString();
    }

    /** A row per fixture with differences, a column per kind any of them has: which bugs a walker has, and where. */
    private static void kindsTable(StringBuilder s, List<FixtureResult> results) {
        Set<DifferenceKind> kinds = EnumSet.noneOf(DifferenceKind.class);
        results.forEach(r -> r.kinds().forEach(k -> kinds.add(k.kind())));
        if (kinds.isEmpty()) {
            return;
        }
        s.append("<h2>Differences per kind</h2>\n<table class=\"kinds\"><tr><th>fixture</th>");
        kinds.forEach(k -> s.append("<th data-kind=\"").append(k.id()).append("\">").append(xml(k.label())).append("</th>"));
        s.append("</tr>\n");
        for (FixtureResult r : results) {
            if (r.kinds().isEmpty()) {
                continue;
            }
            Map<DifferenceKind, DifferencesOfKind> of = new EnumMap<>(DifferenceKind.class);
            r.kinds().forEach(k -> of.put(k.kind(), k));
            s.append("<tr><td>").append(xml(r.fixture().name())).append("</td>");
            for (DifferenceKind k : kinds) {
                DifferencesOfKind d = of.get(k);
                s.append("<td data-kind=\"").append(k.id()).append("\">")
                        .append(d == null ? "" : xml(d.counted()))
                        .append("</td>");
            }
            s.append("</tr>\n");
        }
        s.append("</table>\n<h2>Fixtures</h2>\n");
    }

    private static String xml(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                default -> out.append((c < 0x20 && c != '\n' && c != '\t') || c == '\uFFFE' || c == '\uFFFF' ? ' ' : c);
            }
        }
        return out.toString();
    }
}
