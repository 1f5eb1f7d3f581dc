package io.clrheap.walker.explain;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * Prints narrations and object explanations as text for a 100-column terminal: a numbered heading per section, a
 * line per read (field, offset, address, type, value, meaning, source) followed by its hex excerpt, then the notes.
 */
public final class ExplainText {

    private static final int WIDTH = 100;

    private ExplainText() {
    }

    public static void print(Narration narration, PrintWriter out) {
        out.printf(Locale.ROOT, "%s — the %s path%n", narration.subject(), narration.path());
        List<ExplainSection> sections = narration.sections();
        for (int i = 0; i < sections.size(); i++) {
            out.println();
            section(i + 1, sections.get(i), out);
        }
        out.flush();
    }

    public static void print(ObjectExplanation explanation, PrintWriter out) {
        section(0, explanation.section(), out);
        if (explanation.references() != null) {
            section(0, explanation.references(), out);
        }
        if (explanation.nameChase() != null) {
            section(0, explanation.nameChase(), out);
        }
        out.flush();
    }

    private static void section(int number, ExplainSection s, PrintWriter out) {
        String heading = number > 0 ? String.format(Locale.ROOT, "%2d. %s", number, s.title()) : s.title();
        if (s.where().isEmpty()) {
            out.println(heading);
        } else if (Math.max(heading.length(), 32) + 1 + s.where().length() <= WIDTH) {
            out.printf(Locale.ROOT, "%-32s %s%n", heading, s.where());
        } else {
            out.println(heading);
            out.println("    " + s.where());
        }
        for (ExplainStep step : s.steps()) {
            step(step, out);
        }
        if (s.excerpt() != null) {
            out.println("    bytes (from the object header; the read marked):");
            s.excerpt().lines().forEach(l -> out.println("      " + l));
        }
        for (String note : s.notes()) {
            wrap("    · ", "      ", note, out);
        }
    }

    private static void step(ExplainStep step, PrintWriter out) {
        String line = String.format(Locale.ROOT, "    %-24s +0x%-5x @%-13x %-8s %s", step.field(), step.offset(), step.address(), step.type(), value(step));
        if (line.length() + 2 + step.meaning().length() <= WIDTH) {
            out.println(line + "  " + step.meaning());
        } else {
            out.println(line);
            wrap("        ", "        ", step.meaning(), out);
        }
        List<String> hex = step.excerpt().lines();
        for (int i = 0; i < hex.size(); i++) {
            out.println("      " + hex.get(i) + (i == 0 ? "  [" + step.source() + "]" : ""));
        }
    }

    /** Hex, but a negative signed value in decimal: a published offset of -1 reads better as -1. */
    private static String value(ExplainStep step) {
        boolean signed = step.type().startsWith("int");
        return signed && step.value() < 0 ? Long.toString(step.value()) : "0x" + Long.toHexString(step.value());
    }

    /** Words to lines of at most {@value #WIDTH} columns. */
    private static void wrap(String first, String rest, String text, PrintWriter out) {
        StringBuilder line = new StringBuilder(first);
        int start = line.length();
        for (String word : text.split(" ")) {
            if (line.length() > start && line.length() + 1 + word.length() > WIDTH) {
                out.println(line);
                line = new StringBuilder(rest);
                start = line.length();
            } else if (line.length() > start) {
                line.append(' ');
            }
            line.append(word);
        }
        out.println(line);
    }
}
