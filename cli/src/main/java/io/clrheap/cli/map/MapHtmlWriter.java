package io.clrheap.cli.map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.map.Buckets;
import io.clrheap.walker.map.HeapMap;
import io.clrheap.walker.map.MapContext;
import io.clrheap.walker.map.MapRegion;
import io.clrheap.walker.map.MapType;
import io.clrheap.walker.map.RegionObjects;
import io.clrheap.walker.source.PendingFile;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes a {@link HeapMap} as one self-contained HTML page: the template {@code map.html} (inline CSS and script, no
 * network, no external assets) with the map embedded as JSON in a {@code <script type="application/json">} element.
 * The same map gives the same bytes. The file is written beside its destination and moved over it, so a reader never
 * sees half a page.
 *
 * <p>The JSON ({@code format} {@code clrheap-map}, {@code version} 2): {@code types} (the legend: name, mt, count,
 * bytes, colour, free), and {@code regions} in address order, each with its bounds as hex strings, its allocation
 * contexts and buckets as offsets from {@code mem}, buckets as {@code [objects, type, bytes, type, bytes, ...]}
 * (type -1: the rest), and, when kept, {@code detail}: its objects as {@code [gap, size, type, ...]} where gap is the distance
 * from where the previous object's step ends (max(align(size), minimum object size)) — 0 for most objects, which keeps
 * a million objects in a few MB. Version 2 (version 1 had no layout) adds the {@link MapLayout}: {@code layout} (the bars' scale, the address
 * strip's width, range and breaks) and per region {@code barBytes}, {@code width} (its bar, in pixels) and
 * {@code stripX}, {@code stripWidth} (its mark on the address strip).
 */
public final class MapHtmlWriter {

    static final String TEMPLATE = "map.html";
    static final String DATA_MARK = "@@HEAP_MAP_DATA@@";
    static final String TITLE_MARK = "@@TITLE@@";

    private MapHtmlWriter() {
    }

    /** Writes the page of {@code map} to {@code file}, replacing it. */
    public static void write(HeapMap map, MapPage page, Path file) throws IOException {
        String template = template();
        int data = template.indexOf(DATA_MARK);
        String head = template.substring(0, data).replace(TITLE_MARK, escapeHtml("clrheap map: " + page.title()));
        String tail = template.substring(data + DATA_MARK.length());
        // written under a hidden temporary name beside the page and renamed into place when complete: a failed or
        // interrupted run (SIGINT, SIGTERM, a full disk) leaves no half a page
        PendingFile.write(file, partial -> {
            try (Writer out = new BufferedWriter(Files.newBufferedWriter(partial, StandardCharsets.UTF_8), 1 << 16)) {
                out.write(head);
                writeJson(map, page, out);
                out.write(tail);
            }
        });
    }

    private static String template() throws IOException {
        try (InputStream in = MapHtmlWriter.class.getResourceAsStream(TEMPLATE)) {
            if (in == null) {
                throw new IOException("the page template " + TEMPLATE + " is missing from the clrheap jar (io/clrheap/cli/map/)");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (text.indexOf(DATA_MARK) < 0 || text.indexOf(DATA_MARK) != text.lastIndexOf(DATA_MARK)) {
                throw new IOException("the page template " + TEMPLATE + " must hold " + DATA_MARK + " exactly once");
            }
            return text;
        }
    }

    static String escapeHtml(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    private static void writeJson(HeapMap map, MapPage page, Writer out) throws IOException {
        JsonFactory factory = JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
        try (JsonGenerator g = factory.createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.setCharacterEscapes(new ScriptSafeEscapes());
            g.writeStartObject();
            g.writeStringField("format", "clrheap-map");
            g.writeNumberField("version", 2);
            g.writeStringField("title", page.title());
            g.writeStringField("describe", page.describe());
            g.writeNumberField("objects", map.objects());
            g.writeNumberField("bytes", map.bytes());
            g.writeNumberField("detailedObjects", map.detailedObjects());
            g.writeNumberField("problems", map.problems());
            g.writeObjectFieldStart("limits");
            g.writeNumberField("bucketsPerRegion", map.limits().bucketsPerRegion());
            g.writeNumberField("maxRegionObjects", map.limits().maxRegionObjects());
            g.writeNumberField("maxObjects", map.limits().maxObjects());
            g.writeEndObject();
            g.writeObjectFieldStart("step");
            g.writeNumberField("alignment", map.rules().alignment());
            g.writeNumberField("minObjectSize", map.rules().minObjectSize());
            g.writeEndObject();
            MapLayout layout = MapLayout.of(map);
            writeLayout(g, layout);
            g.writeArrayFieldStart("types");
            for (MapType t : map.types()) {
                g.writeStartObject();
                g.writeStringField("name", t.name());
                g.writeStringField("mt", hex(t.methodTable()));
                g.writeNumberField("count", t.count());
                g.writeNumberField("bytes", t.bytes());
                g.writeStringField("colour", t.colour());
                if (t.free()) {
                    g.writeBooleanField("free", true);
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("regions");
            Map<Long, StripMark> marks = new HashMap<>();
            layout.strip().marks().forEach(m -> marks.put(m.mem(), m));
            for (int i = 0; i < map.regions().size(); i++) {
                MapRegion r = map.regions().get(i);
                writeRegion(g, r, map, layout.widths().get(i), marks.get(r.region().mem()));
                g.writeRaw('\n'); // a line per region: the page's source stays readable and diffable
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    private static void writeLayout(JsonGenerator g, MapLayout layout) throws IOException {
        BarScale scale = layout.scale();
        AddressStrip strip = layout.strip();
        g.writeObjectFieldStart("layout");
        g.writeNumberField("bytesPerPixel", scale.bytesPerPixel());
        g.writeStringField("scale", scale.label());
        g.writeNumberField("minWidth", scale.minWidth());
        g.writeNumberField("rowWidth", scale.rowWidth());
        g.writeObjectFieldStart("strip");
        g.writeNumberField("width", strip.width());
        g.writeStringField("lowest", hex(strip.lowest()));
        g.writeStringField("highest", hex(strip.highest()));
        g.writeArrayFieldStart("breaks");
        for (StripBreak b : strip.breaks()) {
            g.writeStartObject();
            g.writeNumberField("x", b.x());
            g.writeNumberField("width", b.width());
            g.writeStringField("from", hex(b.from()));
            g.writeStringField("to", hex(b.to()));
            g.writeNumberField("bytes", b.bytes());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void writeRegion(JsonGenerator g, MapRegion r, HeapMap map, int width, StripMark mark) throws IOException {
        Region region = r.region();
        g.writeStartObject();
        g.writeNumberField("heap", region.heap());
        g.writeStringField("kind", region.kind().id());
        g.writeStringField("descriptor", hex(region.descriptor()));
        g.writeStringField("mem", hex(region.mem()));
        g.writeStringField("end", hex(region.end()));
        g.writeStringField("committed", hex(region.committed()));
        g.writeStringField("reserved", hex(region.reserved()));
        g.writeStringField("flags", hex(region.flags()));
        g.writeBooleanField("ephemeral", region.ephemeral());
        g.writeNumberField("objects", r.objects());
        g.writeNumberField("bytes", r.bytes());
        g.writeNumberField("problems", r.problems());
        g.writeNumberField("barBytes", BarScale.barBytes(region));
        g.writeNumberField("width", width);
        g.writeNumberField("stripX", mark.x());
        g.writeNumberField("stripWidth", mark.width());
        g.writeArrayFieldStart("contexts");
        for (MapContext c : r.contexts()) {
            g.writeStartObject();
            g.writeStringField("owner", c.owner());
            g.writeNumberField("start", c.start() - region.mem());
            g.writeNumberField("end", c.end() - region.mem());
            g.writeEndObject();
        }
        g.writeEndArray();
        Buckets b = r.buckets();
        g.writeNumberField("bucketBytes", b.bucketBytes());
        g.writeArrayFieldStart("buckets");
        for (int i = 0; i < b.count(); i++) {
            g.writeStartArray();
            g.writeNumber(b.objects(i));
            for (int e = 0; e < b.entries(i); e++) {
                g.writeNumber(b.entryType(i, e));
                g.writeNumber(b.entryBytes(i, e));
            }
            g.writeEndArray();
        }
        g.writeEndArray();
        if (r.detail().isPresent()) {
            RegionObjects o = r.detail().get();
            long alignment = map.rules().alignment();
            long min = map.rules().minObjectSize();
            g.writeArrayFieldStart("detail");
            long next = 0;
            for (int i = 0; i < o.count(); i++) {
                g.writeNumber(o.offset(i) - next);
                g.writeNumber(o.size(i));
                g.writeNumber(o.type(i));
                next = o.offset(i) + Math.max((o.size(i) + alignment - 1) & -alignment, min);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
