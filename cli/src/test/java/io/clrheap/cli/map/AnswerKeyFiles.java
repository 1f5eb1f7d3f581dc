package io.clrheap.cli.map;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The answer key files the map tests compare with (docs/answer-key.md), read into rows. */
final class AnswerKeyFiles {

    /** A row of regions.tsv. */
    record RegionRow(int heap, String generation, long descriptor, long mem, long end, long reserved) {
    }

    /** A row of dumpheap-stat.txt. */
    record StatRow(long mt, long count, long bytes, String name) {
    }

    /** A row of objects.tsv. */
    record ObjectRow(long address, long mt, long size, String generation, int heap, String type) {
    }

    private static final Pattern STAT_ROW = Pattern.compile("^\\s*([0-9a-f]+)\\s+([0-9,]+)\\s+([0-9,]+) (.*)$");

    private AnswerKeyFiles() {
    }

    static List<RegionRow> regions(Path answer) throws IOException {
        List<RegionRow> rows = new ArrayList<>();
        for (String line : dataLines(answer.resolve("regions.tsv"))) {
            String[] t = line.split("\t");
            rows.add(new RegionRow(Integer.parseInt(t[0]), t[1], hex(t[2]), hex(t[4]), hex(t[5]), hex(t[6])));
        }
        return rows;
    }

    /** The type rows of a dumpheap-stat text (Free included); the header and the Total line left out. */
    static List<StatRow> stat(Path file) throws IOException {
        List<StatRow> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            Matcher m = STAT_ROW.matcher(line);
            if (m.matches()) {
                rows.add(new StatRow(Long.parseUnsignedLong(m.group(1), 16), number(m.group(2)), number(m.group(3)), m.group(4)));
            }
        }
        return rows;
    }

    static List<ObjectRow> objects(Path answer) throws IOException {
        List<ObjectRow> rows = new ArrayList<>();
        for (String line : dataLines(answer.resolve("objects.tsv"))) {
            String[] t = line.split("\t", 7);
            rows.add(new ObjectRow(hex(t[0]), hex(t[1]), Long.parseLong(t[2]), t[3], Integer.parseInt(t[4]), t[6]));
        }
        return rows;
    }

    /** The objects of objects.tsv in {@code [mem, end)}. */
    static List<ObjectRow> objectsIn(List<ObjectRow> all, long mem, long end) {
        return all.stream().filter(o -> Long.compareUnsigned(o.address() - mem, end - mem) < 0).toList();
    }

    private static List<String> dataLines(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        return lines.subList(1, lines.size()).stream().filter(l -> !l.isBlank()).toList();
    }

    private static long hex(String s) {
        return Long.parseUnsignedLong(s.substring(2), 16);
    }

    private static long number(String s) {
        return Long.parseLong(s.replace(",", ""));
    }
}
