package io.clrheap.cli.map;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.cli.map.AnswerKeyFiles.ObjectRow;
import io.clrheap.walker.map.HeapMap;
import io.clrheap.walker.map.MapLimits;
import io.clrheap.walker.report.TypeNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page {@link MapHtmlWriter} writes: self-contained, deterministic, its data safe inside a script element. */
class MapHtmlWriterTest {

    private static final Pattern DATA = Pattern.compile("<script type=\"application/json\" id=\"heap-map-data\">(.*?)</script>", Pattern.DOTALL);

    @TempDir
    static Path dir;

    static MapFixture fixture;

    @BeforeAll
    static void generate() {
        fixture = MapFixture.generate("every-edge", dir);
    }

    @Test
    void theSameHeapGivesTheSameBytes() throws Exception {
        Path first = dir.resolve("first.html");
        Path second = dir.resolve("second.html");
        MapHtmlWriter.write(fixture.map(MapLimits.DEFAULT), new MapPage("every-edge", "test"), first);
        MapHtmlWriter.write(fixture.map(MapLimits.DEFAULT, null, 1), new MapPage("every-edge", "test"), second);
        assertThat(Files.readAllBytes(second)).isEqualTo(Files.readAllBytes(first));
    }

    @Test
    void thePageNeedsNothingFromOutside() throws Exception {
        String page = write(fixture.map(MapLimits.DEFAULT), "self-contained.html");
        assertThat(page).startsWith("<!DOCTYPE html>").doesNotContain("http://", "https://", "<link", "@import", "url(", " src=");
        assertThat(page.chars().allMatch(c -> c < 128)).as("the page is ASCII: non-ASCII names travel as JSON escapes").isTrue();
    }

    @Test
    void typeNamesThatLookLikeMarkupStayText() throws Exception {
        Map<Long, String> names = new HashMap<>(fixture.typeNames());
        String hostile = "</script><script>alert(\"x\")</script><!-- & 'q' \u2028 \u00e9";
        long mt = names.entrySet().stream().filter(e -> e.getValue().equals("System.String")).findFirst().orElseThrow().getKey();
        names.put(mt, hostile);
        String page = write(fixture.map(MapLimits.DEFAULT, TypeNames.of(names), 4), "hostile.html");
        assertThat(page).doesNotContain("alert(\"x\")</script>", "<!--", "\u2028");
        assertThat(page.split("</script>", -1)).as("only the template's three script elements close").hasSize(4);
        Matcher m = DATA.matcher(page);
        assertThat(m.find()).isTrue();
        JsonNode types = new ObjectMapper().readTree(m.group(1)).get("types");
        List<String> read = new ArrayList<>();
        types.forEach(t -> read.add(t.get("name").asText()));
        assertThat(read).contains(hostile);
    }

    @Test
    void theTitleIsHtmlEscaped() throws Exception {
        Path file = dir.resolve("title.html");
        MapHtmlWriter.write(fixture.map(MapLimits.DEFAULT), new MapPage("<b>dump</b> & co", "test"), file);
        assertThat(Files.readString(file)).contains("<title>clrheap map: &lt;b&gt;dump&lt;/b&gt; &amp; co</title>");
    }

    @Test
    void theEmbeddedObjectsDecodeToTheAnswerKeysAddressesAndSizes() throws Exception {
        HeapMap map = fixture.map(MapLimits.DEFAULT);
        JsonNode data = json(write(map, "decode.html"));
        long alignment = data.get("step").get("alignment").asLong();
        long min = data.get("step").get("minObjectSize").asLong();
        List<String> decoded = new ArrayList<>();
        for (JsonNode region : data.get("regions")) {
            long mem = Long.parseUnsignedLong(region.get("mem").asText().substring(2), 16);
            JsonNode detail = region.get("detail");
            long next = 0;
            for (int i = 0; i < detail.size(); i += 3) {
                long offset = next + detail.get(i).asLong();
                long size = detail.get(i + 1).asLong();
                String type = data.get("types").get(detail.get(i + 2).asInt()).get("name").asText();
                decoded.add(String.format("0x%x %d %s", mem + offset, size, type));
                next = offset + Math.max((size + alignment - 1) / alignment * alignment, min);
            }
        }
        List<ObjectRow> objects = AnswerKeyFiles.objects(fixture.answer);
        assertThat(decoded).isEqualTo(objects.stream().map(o -> String.format("0x%x %d %s", o.address(), o.size(), o.type())).toList());
        assertThat(data.get("regions")).hasSize(map.regions().size());
    }

    @Test
    void theDataCarriesTheLayoutABarAndAStripMarkPerRegion() throws Exception {
        HeapMap map = fixture.map(MapLimits.DEFAULT);
        JsonNode data = json(write(map, "layout.html"));
        MapLayout layout = MapLayout.of(map);
        assertThat(data.get("version").asInt()).isEqualTo(2);
        assertThat(data.get("layout").get("bytesPerPixel").asLong()).isEqualTo(layout.scale().bytesPerPixel());
        assertThat(data.get("layout").get("scale").asText()).isEqualTo(layout.scale().label()).startsWith("1 px = ");
        assertThat(data.get("layout").get("strip").get("breaks")).hasSize(layout.strip().breaks().size());
        for (int i = 0; i < map.regions().size(); i++) {
            JsonNode region = data.get("regions").get(i);
            assertThat(region.get("width").asInt()).isEqualTo(layout.widths().get(i));
            assertThat(region.get("barBytes").asLong()).isEqualTo(BarScale.barBytes(map.regions().get(i).region()));
            long mem = map.regions().get(i).region().mem();
            StripMark mark = layout.strip().marks().stream().filter(m -> m.mem() == mem).findFirst().orElseThrow();
            assertThat(region.get("stripX").asInt()).isEqualTo(mark.x());
            assertThat(region.get("stripWidth").asInt()).isEqualTo(mark.width());
        }
    }

    @Test
    void aRegionPastTheBudgetCarriesBucketsButNoObjects() throws Exception {
        JsonNode data = json(write(fixture.map(MapLimits.DEFAULT.withMaxObjects(0)), "buckets.html"));
        assertThat(data.get("detailedObjects").asLong()).isZero();
        for (JsonNode region : data.get("regions")) {
            assertThat(region.has("detail")).isEqualTo(region.get("objects").asLong() == 0);
            long bytes = 0;
            for (JsonNode bucket : region.get("buckets")) {
                for (int k = 2; k < bucket.size(); k += 2) {
                    bytes += bucket.get(k).asLong();
                }
            }
            assertThat(bytes).isEqualTo(region.get("bytes").asLong());
        }
    }

    private static String write(HeapMap map, String name) throws Exception {
        Path file = dir.resolve(name);
        MapHtmlWriter.write(map, new MapPage("every-edge", ".NET 8.0.30, server GC"), file);
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static JsonNode json(String page) throws Exception {
        Matcher m = DATA.matcher(page);
        assertThat(m.find()).isTrue();
        return new ObjectMapper().readTree(m.group(1));
    }
}
