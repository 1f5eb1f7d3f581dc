package io.clrheap.layout.view.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * BENCHMARKS.md holds one section per benchmark report, each written by its own run: a report replaces its own
 * section (from its {@code ## } heading to the next one or the end) and leaves the others as they are, so that the
 * reports of different modules can run one after the other into the same file. The emulator's benchmarks use it too,
 * through this module's test jar.
 */
public final class BenchmarksFile {

    static final String PREAMBLE = "# Benchmarks\n\nEvery figure is a ratio against a baseline measured in the same run; "
            + "absolute numbers are for context only (these machines are noisy).\n\n";

    private BenchmarksFile() {
    }

    /** Writes {@code section} (starting with its {@code ## } heading line) into {@code file}, in place of its previous version. */
    public static void writeSection(Path file, String section) throws IOException {
        String old = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        Files.writeString(file, replaceSection(old, section), StandardCharsets.UTF_8);
    }

    /** {@code document} with {@code section} in place of the section of the same heading, or appended when it has none. */
    static String replaceSection(String document, String section) {
        String heading = section.lines().findFirst().orElseThrow();
        if (!heading.startsWith("## ")) {
            throw new IllegalArgumentException("a section starts with its '## ' heading, not: " + heading);
        }
        String body = section.endsWith("\n") ? section : section + "\n";
        String doc = document.isBlank() ? PREAMBLE : document;
        int start = headingAt(doc, heading);
        if (start < 0) {
            String separator = doc.endsWith("\n\n") ? "" : doc.endsWith("\n") ? "\n" : "\n\n";
            return doc + separator + body;
        }
        int next = doc.indexOf("\n## ", start + heading.length());
        String rest = next < 0 ? "" : "\n" + doc.substring(next + 1);
        return doc.substring(0, start) + body + rest;
    }

    /** Where the line {@code heading} starts in {@code doc}, or -1. */
    private static int headingAt(String doc, String heading) {
        for (int at = doc.indexOf(heading); at >= 0; at = doc.indexOf(heading, at + 1)) {
            boolean lineStart = at == 0 || doc.charAt(at - 1) == '\n';
            int end = at + heading.length();
            boolean lineEnd = end == doc.length() || doc.charAt(end) == '\n';
            if (lineStart && lineEnd) {
                return at;
            }
        }
        return -1;
    }
}
