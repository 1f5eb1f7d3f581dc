package io.clrheap.cli;

import java.util.ArrayList;
import java.util.List;

/** A small writer of derive-profile's build file: one entry a line, nested objects indented; deterministic. */
final class BuildFileJson {
    private final StringBuilder s = new StringBuilder();
    private final List<Boolean> first = new ArrayList<>();

    static String quote(String text) {
        StringBuilder q = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                case '\r' -> q.append("\\r");
                case '\t' -> q.append("\\t");
                default -> {
                    if (c < 0x20) {
                        q.append(String.format("\\u%04x", (int) c));
                    } else {
                        q.append(c);
                    }
                }
            }
        }
        return q.append('"').toString();
    }

    private void indent() {
        s.append("  ".repeat(first.size()));
    }

    private void separate() {
        int last = first.size() - 1;
        if (!first.get(last)) {
            s.append(",\n");
        } else {
            s.append("\n");
            first.set(last, false);
        }
    }

    void open(String bracket) {
        s.append(bracket);
        first.add(true);
    }

    void openField(String name, String bracket) {
        separate();
        indent();
        s.append(quote(name)).append(": ").append(bracket);
        first.add(true);
    }

    void item(String text) {
        separate();
        indent();
        s.append(text);
    }

    void field(String name, String value) {
        item(quote(name) + ": " + quote(value));
    }

    void raw(String name, String json) {
        item(quote(name) + ": " + json);
    }

    void close(String bracket) {
        boolean empty = first.remove(first.size() - 1);
        if (!empty) {
            s.append("\n");
            indent();
        }
        s.append(bracket);
    }

    String text() {
        return s.append("\n").toString();
    }
}
