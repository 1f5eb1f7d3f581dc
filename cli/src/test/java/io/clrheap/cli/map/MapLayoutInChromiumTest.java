package io.clrheap.cli.map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.cli.ClrheapCommand;
import io.clrheap.generator.ExternalTool;
import java.awt.image.BufferedImage;
import java.math.BigInteger;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The map's layout as a real browser (headless Chromium) draws it, measured by the page itself ({@code #measure} puts
 * the rectangles it drew in the body's {@code data-measure}): bars as wide as their regions' committed bytes at the
 * page's scale, an address-strip mark per region in address order, and a heap of 114 regions (the emulated
 * {@code large} scenario) in less than two screens. Full-page screenshots of a small heap (every-edge) and of that
 * one are kept in target/map-screenshots/.
 */
class MapLayoutInChromiumTest {

    static final int WINDOW_WIDTH = 1400;
    static final int SCREEN_HEIGHT = 900;
    private static final Pattern MEASURE = Pattern.compile(" data-measure=\"([^\"]*)\"");

    @TempDir
    static Path dir;

    static HeadlessChromium chromium;
    static Path small;
    static Path large;

    @BeforeAll
    static void drawASmallAndALargeHeap() throws Exception {
        chromium = new HeadlessChromium(ExternalTool.CHROMIUM.require(), Files.createDirectories(dir.resolve("profile")));
        MapFixture fixture = MapFixture.generate("every-edge", dir);
        small = map(fixture.bundle.toString(), "every-edge.html");
        large = map("--emulate=large", "large.html");
    }

    @Test
    void aSmallHeapsBarsAreAsWideAsTheirBytes() throws Exception {
        JsonNode m = measure(small);
        assertThat(m.get("regions")).hasSize(13);
        assertProportional(m);
    }

    @Test
    void aLargeHeapsBarsAreAsWideAsTheirBytes() throws Exception {
        JsonNode m = measure(large);
        assertThat(m.get("regions").size()).isGreaterThanOrEqualTo(100);
        assertProportional(m);
    }

    @Test
    void theAddressStripHasAMarkPerRegionInAddressOrder() throws Exception {
        for (Path page : List.of(small, large)) {
            JsonNode m = measure(page);
            JsonNode marks = m.get("marks");
            Set<String> regions = new HashSet<>();
            m.get("regions").forEach(r -> regions.add(r.get("mem").asText()));
            Set<String> marked = new HashSet<>();
            marks.forEach(k -> marked.add(k.get("mem").asText()));
            assertThat(marks).as(page + ": a mark per region").hasSize(regions.size());
            assertThat(marked).isEqualTo(regions);
            double stripWidth = m.get("strip").get("width").asDouble();
            assertThat(stripWidth).as("the strip spans the page's width").isGreaterThan(600);
            for (int i = 0; i < marks.size(); i++) {
                JsonNode k = marks.get(i);
                assertThat(k.get("x").asDouble()).isBetween(-0.5, stripWidth);
                assertThat(k.get("width").asDouble()).as("a mark stays visible").isGreaterThanOrEqualTo(1.9);
                if (i > 0) {
                    JsonNode before = marks.get(i - 1);
                    assertThat(address(k)).as("marks in address order").isGreaterThan(address(before));
                    assertThat(k.get("x").asDouble()).as(k.get("mem").asText() + " right of " + before.get("mem").asText())
                            .isGreaterThanOrEqualTo(before.get("x").asDouble());
                }
            }
        }
    }

    @Test
    void aHeapOf114RegionsFitsInTwoScreensItsGenerationsPackedInRows() throws Exception {
        JsonNode m = measure(large);
        assertThat(m.get("pageHeight").asInt()).as("page height at %d px wide", WINDOW_WIDTH).isLessThan(2 * SCREEN_HEIGHT);
        assertThat(m.get("pageWidth").asInt()).as("no horizontal scroll").isLessThanOrEqualTo(WINDOW_WIDTH);
        Set<Long> rows = new TreeSet<>();
        m.get("regions").forEach(r -> rows.add(Math.round(r.get("top").asDouble())));
        assertThat(rows.size()).as("rows of bars for " + m.get("regions").size() + " regions").isLessThanOrEqualTo(24);
    }

    @Test
    void fullPageScreenshotsAreKept() throws Exception {
        for (Path page : List.of(small, large)) {
            int height = measure(page).get("pageHeight").asInt();
            Path png = MapInChromiumTest.SCREENSHOTS.resolve(page.getFileName().toString().replace(".html", "-full-page.png"));
            Files.deleteIfExists(png);
            chromium.screenshot(page.toUri(), png, WINDOW_WIDTH, height);
            BufferedImage image = ImageIO.read(png.toFile());
            assertThat(image.getWidth()).isEqualTo(WINDOW_WIDTH);
            assertThat(image.getHeight()).as("all of the page").isEqualTo(height);
            assertThat(Files.size(png)).isGreaterThan(20_000);
        }
    }

    /** Every bar's measured width: its committed bytes at the page's scale, to the pixel, or the minimum width. */
    private static void assertProportional(JsonNode m) {
        long perPixel = m.get("bytesPerPixel").asLong();
        int min = m.get("minWidth").asInt();
        List<JsonNode> toScale = new ArrayList<>();
        for (JsonNode r : m.get("regions")) {
            double bytes = r.get("barBytes").asDouble();
            double expected = Math.max(min, bytes / perPixel);
            assertThat(r.get("width").asDouble()).as(r.get("kind").asText() + " region " + r.get("mem").asText() + " of " + (long) bytes
                    + " bytes at " + perPixel + " bytes per pixel").isCloseTo(expected, within(1.0));
            assertThat(r.get("height").asDouble()).isGreaterThanOrEqualTo(20);
            if (bytes / perPixel >= 4 * min) {
                toScale.add(r);
            }
        }
        assertThat(toScale).as("regions wide enough to compare").hasSizeGreaterThanOrEqualTo(2);
        JsonNode widest = toScale.stream().max((a, b) -> Double.compare(a.get("barBytes").asDouble(), b.get("barBytes").asDouble())).orElseThrow();
        for (JsonNode r : toScale) {
            double bytesRatio = widest.get("barBytes").asDouble() / r.get("barBytes").asDouble();
            double widthRatio = widest.get("width").asDouble() / r.get("width").asDouble();
            assertThat(widthRatio).as("width ratio of %s to %s", widest.get("mem").asText(), r.get("mem").asText())
                    .isCloseTo(bytesRatio, within(bytesRatio * 2.0 / r.get("width").asDouble()));
        }
    }

    /** The page's own measurements, laid out in a 1400 x 900 window. */
    private static JsonNode measure(Path page) throws Exception {
        HeadlessChromium.Run run = chromium.dumpDom(URI.create(page.toUri() + "#measure"), WINDOW_WIDTH, SCREEN_HEIGHT);
        assertThat(run.stdout()).contains("data-ready=\"true\"", "data-errors=\"0\"");
        assertThat(run.console()).as("console messages").isEmpty();
        Matcher found = MEASURE.matcher(run.stdout());
        assertThat(found.find()).as("#measure sets data-measure on the body").isTrue();
        String json = found.group(1).replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        return new ObjectMapper().readTree(json);
    }

    private static BigInteger address(JsonNode mark) {
        return new BigInteger(mark.get("mem").asText().substring(2), 16);
    }

    private static Path map(String source, String name) {
        Path out = dir.resolve(name);
        ClrheapCommand.Outcome r = ClrheapCommand.run("map", source, "--html", out.toString(), "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        return out;
    }
}
